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
  const allowed = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) {
    throw new SvcError('validation_failed', 'callback URL must use https (http is allowed only with SVC_ALLOW_PRIVATE_CALLBACKS=true).', {
      field: 'callbackUrl',
    });
  }
  return parsed.toString();
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
  // 43 base62 characters carry 256 bits: the callback secret is at least 32 random bytes' worth.
  const callbackSecret = callbackUrl === null ? null : `whsec_${randomBase62(43)}`;
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
    callbackUrl: key.callbackUrl,
    replyFormat: key.replyFormat,
    widgetId: key.widgetId,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
