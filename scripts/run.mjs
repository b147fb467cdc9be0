#!/usr/bin/env node
// The README's two commands: `npm start` (the demo) and `npm test` (the whole suite). Each sets up what it needs
// first (pnpm, dependencies; for tests Chromium and PostgreSQL too) and is quick when everything is there.
import { spawn } from 'node:child_process';
import { ensureChromium, ensureDependencies, ensureServerTools, ensurePnpm, root, SetupError, testDatabase } from './machine.mjs';

const [command, ...args] = process.argv.slice(2);

/** Runs a child with the terminal, passing on SIGINT/SIGTERM so stopping this process stops it; resolves its exit code. */
function foreground(cmd, cmdArgs, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}

async function main() {
  const env = ensurePnpm();
  ensureDependencies(env);
  switch (command) {
    case 'start': {
      // The server runs in this very process (no pnpm/sh chain), so a signal to `npm start` reaches it.
      Object.assign(process.env, env);
      const { startDemo } = await import('./start.mjs');
      const code = await startDemo(args);
      // A negative code means the server is running and exits on its own signal handlers.
      return code >= 0 ? code : new Promise(() => undefined);
    }
    case 'test': {
      ensureChromium();
      ensureServerTools();
      const testEnv = { ...env, SVC_TEST_DATABASE_URL: testDatabase(env) };
      return foreground('pnpm', ['run', '--silent', 'test:suite', ...args], testEnv);
    }
    default:
      console.error('usage: node scripts/run.mjs start|test [args…]');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof SetupError) {
      console.error(`[setup] ${error.message}`);
      process.exit(1);
    }
    throw error;
  },
);
