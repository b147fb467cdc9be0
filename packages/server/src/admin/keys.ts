import { callbackUrlProblem, redactCredentials } from '../workers/address-policy.js';
import {
  defaultIds,
  randomBase62,
  REPLY_FORMATS,
  SCOPES,
  sha256Hex,
  SvcError,
  type ApiKey,
  type ReplyFormat,
  type Scope,
  type Store,
} from '@svc/core';

export interface CreateKeyInput {
  accountId: string;
  scopes: string[];
  callbackUrl?: string | undefined;
  replyFormat?: string | undefined;
  /** Allow http:// and private-network callback URLs (development, tests). */
  allowPrivateCallbacks?: boolean;
}

export interface CreatedKey {
  apiKey: ApiKey;
  /** The key in clear: shown once, never stored. */
  key: string;
  /** The callback secret, when a callback URL was given: shown once. */
  callbackSecret: string | null;
}

function parseScopes(scopes: string[]): Scope[] {
  if (scopes.length === 0) throw new SvcError('validation_failed', `scopes must name at least one of ${SCOPES.join(', ')}.`, { field: 'scopes' });
  for (const scope of scopes) {
    if (!(SCOPES as readonly string[]).includes(scope)) {
      throw new SvcError('validation_failed', `Unknown scope "${scope}"; scopes are ${SCOPES.join(', ')}.`, { field: 'scopes' });
    }
  }
  return [...new Set(scopes)] as Scope[];
}

function parseCallbackUrl(url: string, allowPrivate: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SvcError('validation_failed', `callback URL "${url}" is not an absolute URL.`, { field: 'callbackUrl' });
  }
  // Names are checked again when each delivery connects (DNS can change); addresses can be refused right away.
  const problem = callbackUrlProblem(parsed, allowPrivate);
  if (problem) throw new SvcError('validation_failed', `${problem}.`, { field: 'callbackUrl' });
  return parsed.toString();
}

/** 43 base62 characters carry 256 bits: at least 32 random bytes' worth (issue: callback secrets). */
function newCallbackSecret(): string {
  return `whsec_${randomBase62(43)}`;
}

export async function createApiKey(store: Store, input: CreateKeyInput): Promise<CreatedKey> {
  const account = await store.getAccount(input.accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${input.accountId} does not exist.`, { field: 'account' });
  const scopes = parseScopes(input.scopes);
  const replyFormat = (input.replyFormat ?? 'markdown') as ReplyFormat;
  if (!REPLY_FORMATS.includes(replyFormat)) {
    throw new SvcError('validation_failed', `reply format must be one of ${REPLY_FORMATS.join(', ')}.`, { field: 'replyFormat' });
  }
  const callbackUrl = input.callbackUrl === undefined ? null : parseCallbackUrl(input.callbackUrl, input.allowPrivateCallbacks ?? false);
  const key = `sk_live_${randomBase62(40)}`;
  const callbackSecret = callbackUrl === null ? null : newCallbackSecret();
  const apiKey: ApiKey = {
    id: defaultIds.random('key'),
    accountId: account.id,
    kind: 'secret',
    prefix: key.slice(0, 12),
    hash: await sha256Hex(key),
    scopes,
    callbackUrl,
    callbackSecret,
    replyFormat,
    widgetId: null,
    allowedOrigins: [],
    createdAt: new Date(),
    revokedAt: null,
  };
  await store.insertApiKey(apiKey);
  return { apiKey, key, callbackSecret };
}

/** What listings show of a key: never the hash or the callback secret. */
export function describeKey(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    accountId: key.accountId,
    kind: key.kind,
    prefix: key.prefix,
    scopes: key.scopes,
    callbackUrl: redactCredentials(key.callbackUrl),
    replyFormat: key.replyFormat,
    widgetId: key.widgetId,
    allowedOrigins: key.allowedOrigins,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/** Replaces a key's callback secret; the new one is returned once. Deliveries still pending sign with it. */
export async function rotateCallbackSecret(store: Store, id: string): Promise<{ apiKey: ApiKey; callbackSecret: string }> {
  const apiKey = await store.getApiKey(id);
  if (!apiKey || apiKey.revokedAt !== null) throw new SvcError('validation_failed', `No active key with id ${id}.`, { field: 'id' });
  if (!apiKey.callbackUrl) {
    throw new SvcError('validation_failed', `Key ${id} has no callback URL, so it has no callback secret.`, { field: 'id' });
  }
  const callbackSecret = newCallbackSecret();
  await store.setApiKeyCallbackSecret(id, callbackSecret);
  return { apiKey: { ...apiKey, callbackSecret }, callbackSecret };
}

export interface CreatePublicKeyInput {
  widgetId: string;
  origins: string[];
}

/** An origin as browsers send it: scheme, host and port only. */
export function normaliseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SvcError('validation_failed', `"${value}" is not an origin such as https://shop.example.`, { field: 'origins' });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new SvcError('validation_failed', `"${value}" is not an origin such as https://shop.example (no path).`, { field: 'origins' });
  }
  return url.origin;
}

/** A `pk_live_` key for the widget: bound to one widget and the origins allowed to use it (DESIGN.md section 4). */
export async function createPublicKey(store: Store, input: CreatePublicKeyInput): Promise<CreatedKey> {
  const widget = await store.getWidget(input.widgetId);
  if (!widget) throw new SvcError('validation_failed', `Widget ${input.widgetId} does not exist.`, { field: 'widget' });
  if (input.origins.length === 0) {
    throw new SvcError('validation_failed', 'A public key needs at least one allowed origin, e.g. --origins https://shop.example.', {
      field: 'origins',
    });
  }
  const key = `pk_live_${randomBase62(32)}`;
  const apiKey: ApiKey = {
    id: defaultIds.random('key'),
    accountId: widget.accountId,
    kind: 'public',
    prefix: key.slice(0, 12),
    hash: await sha256Hex(key),
    scopes: ['conversations:chat'],
    callbackUrl: null,
    callbackSecret: null,
    replyFormat: 'markdown',
    widgetId: widget.id,
    allowedOrigins: [...new Set(input.origins.map(normaliseOrigin))],
    createdAt: new Date(),
    revokedAt: null,
  };
  await store.insertApiKey(apiKey);
  return { apiKey, key, callbackSecret: null };
}
