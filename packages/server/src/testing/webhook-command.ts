import type { Store } from '@svc/core';
import { runAdmin, type CommandOutput, type Values } from '../cli/commands.js';
import { loadConfig } from '../config.js';

/** `svc webhooks <command>` as the CLI runs it, against `store`, with the private-callback policy given. */
export function webhookCommand(
  command: 'create' | 'list' | 'delete' | 'rotate-secret',
  input: { account?: string; url?: string; events?: string; id?: string; graceSeconds?: number },
  store: Store,
  allowPrivateCallbacks: boolean,
): Promise<CommandOutput> {
  const { graceSeconds, ...flags } = input;
  const values = { ...flags, ...(graceSeconds === undefined ? {} : { 'grace-seconds': String(graceSeconds) }) } as Values;
  return runAdmin(`webhooks ${command}`, values, store, { ...loadConfig({}), allowPrivateCallbacks });
}
