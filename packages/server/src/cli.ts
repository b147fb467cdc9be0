#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isSvcError, type Store } from '@svc/core';
import { DataDirInUseError, restorePgliteDataDir } from '@svc/store-postgres';
import { forwardToServer } from './cli/admin-route.js';
import { number, OPTIONS, runAdmin, UsageError, type Values } from './cli/commands.js';
import { readPasswordFromStdin } from './cli/operators-cli.js';
import { waitForSync } from './cli/sources-cli.js';
import { ConfigError, loadConfig, userDirectory, type ServerConfig } from './config.js';
import { describeStore, openStore } from './open-store.js';
import { startServer } from './start.js';

const USAGE = `svc — Svc Conversations server and administration

Usage: svc <command> [options]      (from the repository root: pnpm svc <command> …)

  start [--port N] [--host H] [--role all|api|worker] [--demo]
                                                       Serve the API and run the callback workers (migrates;
                                                       --demo seeds a demo account, widget and key on first run)
  migrate                                              Apply database migrations
  backup --out FILE                                    Copy the embedded database to FILE (safe while svc start runs)
  restore --file FILE                                  Replace the embedded database with a backup (svc start stopped;
                                                       the current one is kept beside it)
  accounts create --name N [--credits C]               → { "id": "acct_…" }
  credits set --account A --balance C                  Set an account's credit balance
  widgets create --account A --name N [--knowledge-base kb_…]… [--greeting G] [--language L]
                 [--timezone Z] [--session-ttl SECONDS]  → { "id": "wgt_…", "identitySecret": "idsec_…" } (shown once)
  widgets rotate-identity-secret --widget W [--grace-hours H]  New token-signing secret; old one valid H more hours (24)
  widgets set-forms --widget W --file forms.json       Replace the widget's dynamic form definitions
  widgets set-theme --widget W --file theme.json       Replace the widget's theme (colours, title, subtitle, avatarUrl,
                                                       darkMode auto|light|dark, position, launcherIcon)
  keys create --account A --scopes s1,s2 [--callback-url U] [--reply-format markdown|text|messenger|whatsapp]
                                                       → { "id": "key_…", "key": "sk_live_…" } (shown once)
  keys create-public --widget W --origins o1,o2         → { "id": "key_…", "key": "pk_live_…" } for the widget
  keys rotate-callback-secret --id ID                  → { "callbackSecret": "whsec_…" } (shown once)
  keys revoke --id ID
  keys list [--account A]
  webhooks create --account A --url U [--events e1,e2] → { "id": "whk_…", "url", "events", "secret": "whsec_…" } (shown
                                                       once). Events: session.created, session.resolved,
                                                       session.expired, session.rated, session.handoff,
                                                       message.feedback (default: all)
  webhooks list --account A                            An account's lifecycle webhook endpoints
  webhooks delete --id W
  webhooks rotate-secret --id W [--grace-seconds N]    New secret; the old one also signs for N s (86400)
  deliveries list [--failed] [--account A] [--limit N] Callback and webhook deliveries, newest first
  deliveries replay --id ID                            Send a delivery again (fresh retry budget)
  kb import --account A --file products.json [--name N] → { "id": "kb_…" }
  kb sources add KB URL [--include PREFIX]… [--exclude PREFIX]… [--max-pages N] [--schedule off|daily|weekly]
                                                       Crawl a website (start URL or sitemap) into the knowledge base
  kb sources list KB                                   Its sources: websites, files, manual documents, with status
  kb sources sync KB SOURCE [--wait]                   Sync a website now; --wait shows found/fetched/unchanged/failed
                                                       until it is ready (exit 1 if it failed)
  kb sources delete KB SOURCE                          Delete a source with its documents
  kb upload KB FILE…                                   Add files: PDF, DOCX, HTML, Markdown, text; CSV or JSON products
  eval run --widget W --file suite.yaml [--format text|json|junit] [--out F]
                                                       Run an eval suite through the widget's agent (README, "Evals");
                                                       exit code 1 when a case fails, regressions named
  operators create --account A --email E [--name N] [--role owner|agent]
                                                       A console operator (role agent by default); the password
                                                       (12+ characters) is read from standard input
  operators list --account A
  conversations list --widget W [--handoff requested|active|none] [--status S] [--limit N]
                                                       A widget's conversations, newest first
  conversations show --session S [--widget W]          The session and its whole history
  conversations resolve --session S [--widget W]       Resolve it (session.resolved, reason operator)
  handoff accept --session S [--widget W] [--as NAME]  Take the conversation over: the AI stays silent
  handoff reply --session S --text T [--as NAME]       Answer as a person (reaches the widget and the callback URL)
  handoff release --session S [--widget W]             Hand the conversation back to the AI

Every command takes --json for machine-readable output. Scopes: conversations:chat, identity:assert,
knowledge:read, knowledge:write, admin. The database is PostgreSQL when DATABASE_URL (or SVC_DATABASE_URL) is set, else PGlite in
SVC_DATA_DIR (default ./.svc-data; while \`svc start\` holds it, commands go through that server).`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const fail = (code: string, message: string, field?: string): void => {
    if (json) console.log(JSON.stringify({ error: { code, message, ...(field ? { field } : {}) } }));
    else console.error(`Error: ${message}`);
  };

  try {
    const config = loadConfig(process.env, {
      ...(values.port === undefined ? {} : { port: number(values.port, 'port') }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.demo === true ? { seedDemo: true } : {}),
    });
    if (positionals[0] === 'start') {
      const role = values.role ?? 'all';
      if (role !== 'all' && role !== 'api' && role !== 'worker') throw new UsageError('--role must be all, api or worker');
      await startServer(config, { role });
      return -1; // keeps running
    }
    if (positionals[0] === 'restore') {
      const result = await restore(config, values.file);
      console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
      return 0;
    }
    const command = positionals.slice(0, 2).join(' ');
    // `kb sources <verb>` has three words; its arguments (and `kb upload`'s) are the positionals after them.
    const name = positionals[0] === 'migrate' || positionals[0] === 'backup' ? positionals[0] : command === 'kb sources' ? positionals.slice(0, 3).join(' ') : command;
    const args = positionals.slice(name.split(' ').length);
    const commandValues: Values & { password?: string; args?: string[] } =
      name === 'operators create'
        ? { ...values, password: await readPasswordFromStdin() }
        : // Files are named relative to where the CLI runs, also when the server holding the database reads them.
          { ...values, args: name === 'kb upload' ? args.map((arg, i) => (i === 0 ? arg : resolve(userDirectory(), arg))) : args };
    let result: { json: unknown; text: string; exitCode?: number };
    let store: Store | undefined;
    try {
      store = await openStore(config);
    } catch (error) {
      // The embedded database is held by `svc start`: let that server run the command.
      if (!(error instanceof DataDirInUseError)) throw error;
    }
    const run = (commandName: string, commandArgs: typeof commandValues) =>
      store ? runAdmin(commandName, commandArgs, store, config) : forwardToServer(config.dataDir, commandName, commandArgs);
    try {
      result = await run(name, commandValues);
      if (name === 'kb sources sync' && values.wait) {
        result = await waitForSync({ run, values: commandValues, out: process.stderr });
        if ((result.json as { status?: string }).status === 'failed') {
          console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
          return 1;
        }
      }
    } finally {
      await store?.close();
    }
    console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
    if (!json && positionals[0] !== 'migrate' && positionals[0] !== 'eval' && positionals[1] !== 'list' && positionals[1] !== 'replay' && positionals[2] !== 'list') {
      console.error(`(${describeStore(config)})`);
    }
    return result.exitCode ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      fail('usage', error.message);
      if (!json) console.error(`\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      fail('config', error.message);
      return 2;
    }
    if (isSvcError(error) || (error as { name?: string }).name === 'SvcError') {
      const e = error as { code: string; message: string; field?: string };
      fail(e.code, e.message, e.field);
      return 1;
    }
    fail('failed', (error as Error).message ?? String(error));
    return 1;
  }
}

/** `svc restore --file FILE`: only with the server stopped, since it replaces the database under it. */
async function restore(config: ServerConfig, file: string | undefined): Promise<{ json: unknown; text: string }> {
  if (config.databaseUrl) throw new UsageError('svc restore is for the embedded database; with DATABASE_URL use pg_restore or psql (README, "Backups").');
  if (!file) throw new UsageError('--file is required');
  const path = resolve(userDirectory(), file);
  let archive: Buffer;
  try {
    archive = await readFile(path);
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const { previous } = await restorePgliteDataDir(config.dataDir, archive);
    return {
      json: { dataDir: config.dataDir, previous },
      text: `Restored ${path} into ${config.dataDir}.${previous ? `\nThe database it replaced is kept in ${previous}; delete it once you are satisfied.` : ''}`,
    };
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new UsageError(`${config.dataDir} is in use (svc start is running): stop the server, then restore.`);
    }
    throw error;
  }
}

/** True when this file is the program: `node dist/cli.js`, or the `svc` bin (a symlink, hence the realpath). */
function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(fileURLToPath(import.meta.url)) === realpathSync(resolve(script));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exit(code);
  });
}
