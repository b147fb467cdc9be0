import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ANY_ACCOUNT, SvcError, type AdminApi, type BackgroundWork } from '@svc/core';
import type { SourceDetail, SourceView } from '@svc/core/schemas';
import { extractUpload } from '../http/sources-routes.js';
import { MAX_UPLOAD_BYTES } from '../http/upload.js';

/**
 * `svc kb sources add|list|sync|delete` and `svc kb upload` (DESIGN.md section 11 "Sources"): the core's operator
 * operations on sources, for whoever runs `svc` on the server (every account). Arguments are positional
 * (`svc kb sources add kb_… https://…`); `--wait` on a sync follows its progress until it settles.
 */
export const SOURCE_OPTIONS = {
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-pages': { type: 'string' },
  schedule: { type: 'string' },
  wait: { type: 'boolean' },
} as const;

export const SOURCE_COMMANDS = ['kb sources add', 'kb sources list', 'kb sources sync', 'kb sources delete', 'kb sources progress', 'kb upload'] as const;
type SourceCommand = (typeof SOURCE_COMMANDS)[number];

export const isSourceCommand = (command: string): command is SourceCommand => (SOURCE_COMMANDS as readonly string[]).includes(command);

/** The options these commands read; `args` are the positionals after the command's words. */
export interface SourceValues {
  args?: string[] | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  'max-pages'?: string | undefined;
  schedule?: string | undefined;
}

export interface SourceCommandPorts {
  admin: AdminApi;
  /** One round of the sync job (`kb sources progress`), when this process can read websites. */
  work?: Pick<BackgroundWork, 'syncSources'>;
  usage(message: string): Error;
}

const describe = (source: SourceView): string => {
  const what = source.type === 'website' ? source.url : source.type === 'file' ? source.fileName : 'manual documents';
  return `${source.id}  ${source.type}  ${source.status}  ${source.documents} documents  ${what ?? ''}`.trimEnd();
};

/** The one-line progress of a sync, as `--wait` prints it. */
export function progressLine(source: SourceView): string {
  const { found, fetched, unchanged, failed, skipped } = source.progress;
  return `${source.id} ${source.status}: ${found} found, ${fetched} fetched, ${unchanged} unchanged, ${failed} failed, ${skipped} skipped`;
}

export async function runSourceCommand(
  command: SourceCommand,
  values: SourceValues,
  ports: SourceCommandPorts,
): Promise<{ json: unknown; text: string }> {
  const args = values.args ?? [];
  const arg = (index: number, name: string): string => {
    const value = args[index];
    if (!value) throw ports.usage(`${command}: <${name}> is required`);
    return value;
  };
  const { admin } = ports;
  switch (command) {
    case 'kb sources add': {
      const maxPages = values['max-pages'];
      const source = await admin.addKnowledgeSource(ANY_ACCOUNT, arg(0, 'kbId'), {
        type: 'website',
        url: arg(1, 'url'),
        ...(values.include ? { include: values.include } : {}),
        ...(values.exclude ? { exclude: values.exclude } : {}),
        // Left for core to validate (a 400 naming maxPages), so a typo is reported as it is.
        ...(maxPages === undefined ? {} : { maxPages: /^\d+$/.test(maxPages) ? Number(maxPages) : maxPages }),
        ...(values.schedule === undefined ? {} : { schedule: values.schedule }),
      });
      return { json: source, text: `Added ${source.id} (${source.url}): its first sync is queued.\n  svc kb sources sync ${source.knowledgeBaseId} ${source.id} --wait   follows it` };
    }
    case 'kb sources list': {
      const sources = await admin.listKnowledgeSources(ANY_ACCOUNT, arg(0, 'kbId'));
      return { json: sources, text: sources.length ? sources.map(describe).join('\n') : 'No sources.' };
    }
    case 'kb sources sync': {
      const source = await admin.syncKnowledgeSource(ANY_ACCOUNT, arg(0, 'kbId'), arg(1, 'sourceId'));
      return { json: source, text: `Sync of ${source.id} ${source.status}.` };
    }
    case 'kb sources progress': {
      // A round of the job here too: with no server running, the CLI's own process does the sync.
      await ports.work?.syncSources({});
      const source = await admin.getKnowledgeSource(ANY_ACCOUNT, arg(0, 'kbId'), arg(1, 'sourceId'));
      return { json: source, text: progressLine(source) };
    }
    case 'kb sources delete': {
      const deleted = await admin.deleteKnowledgeSource(ANY_ACCOUNT, arg(0, 'kbId'), arg(1, 'sourceId'));
      return { json: deleted, text: `Deleted source ${deleted.id} and its documents.` };
    }
    case 'kb upload': {
      const kbId = arg(0, 'kbId');
      const files = args.slice(1);
      if (files.length === 0) throw ports.usage('kb upload: give at least one <file>');
      await admin.getKnowledgeBase(ANY_ACCOUNT, kbId);
      const uploaded: SourceView[] = [];
      for (const file of files) uploaded.push(await uploadOne(admin, { kbId, file, usage: ports.usage }));
      const text = uploaded
        .map((source) => (source.status === 'failed' ? `${source.fileName}: failed: ${source.lastSync?.error ?? ''}` : `${source.fileName}: ${source.id}, ${source.documents} documents`))
        .join('\n');
      return { json: uploaded, text };
    }
  }
}

async function uploadOne(admin: AdminApi, target: { kbId: string; file: string; usage(message: string): Error }): Promise<SourceView> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(target.file));
  } catch (error) {
    throw target.usage(`Cannot read ${target.file}: ${(error as Error).message}`);
  }
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new SvcError('payload_too_large', `${target.file} is larger than 20 MB.`);
  try {
    return await admin.addKnowledgeFile(ANY_ACCOUNT, target.kbId, await extractUpload({ name: basename(target.file), declaredType: '', bytes }));
  } catch (error) {
    if (error instanceof SvcError) throw new SvcError(error.code, `${basename(target.file)}: ${error.message}`, error.field === undefined ? {} : { field: error.field });
    throw error;
  }
}

export interface WaitOptions {
  /** Runs a command where the first one ran (this process's store, or the server holding the data directory). */
  run(command: string, values: SourceValues): Promise<{ json: unknown; text: string }>;
  values: SourceValues;
  /** Where progress goes (standard error, so `--json` output stays one document). */
  out: { write(text: string): unknown; isTTY?: boolean };
  intervalMs?: number;
}

/**
 * `svc kb sources sync … --wait`: reads the source until its sync settles. On a terminal the progress line is
 * rewritten in place; elsewhere (a log, a pipe) a line is written each time the counts change.
 */
export async function waitForSync(options: WaitOptions): Promise<{ json: SourceDetail; text: string }> {
  let last = '';
  for (;;) {
    const source = (await options.run('kb sources progress', options.values)).json as SourceDetail;
    const line = progressLine(source);
    if (line !== last) {
      options.out.write(options.out.isTTY ? `\r\u001b[2K${line}` : `${line}\n`);
      last = line;
    }
    if (source.status === 'ready' || source.status === 'failed') {
      if (options.out.isTTY) options.out.write('\n');
      const failedPages = source.failedPages.map((page) => `  ${page.url}: ${page.status === null ? '' : `${page.status} `}${page.reason}`);
      const text = [
        `${source.id} ${source.status}: ${source.documents} documents${source.lastSync?.error ? `; ${source.lastSync.error}` : ''}.`,
        ...(failedPages.length ? ['Pages that could not be read:', ...failedPages] : []),
      ].join('\n');
      return { json: source, text };
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}
