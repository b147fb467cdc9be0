import { REPLY_FORMATS, SCOPES, type ApiKey, type ApiKeyKind, type ReplyFormat, type Scope } from '../domain.js';
import { SvcError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { sha256Hex } from '../signing.js';
import { requireAccount } from './accounts.js';
import { accountFilter, deliveryUrl, owned, type AccountScope, type AdminContext } from './context.js';
import { redactCredentials } from './redact-url.js';
import { loadOwnWidget } from './widgets.js';

export interface CreateKeyInput {
  accountId: string;
  /** What the owner calls it (1-100 characters); listings show it, and operator replies sent with it are signed with it. */
  name?: string | undefined;
  scopes: string[];
  callbackUrl?: string | undefined;
  replyFormat?: string | undefined;
}

export interface CreatedKey {
  apiKey: ApiKey;
  /** The key in clear: shown once, never stored. */
  key: string;
  /** The callback secret, when a callback URL was given: shown once. */
  callbackSecret: string | null;
}

/** What listings show of a key: never the hash or the callback secret. */
export interface KeyView {
  id: string;
  accountId: string;
  name: string | null;
  kind: ApiKeyKind;
  prefix: string;
  scopes: Scope[];
  callbackUrl: string | null;
  replyFormat: ReplyFormat;
  widgetId: string | null;
  allowedOrigins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export function describeKey(key: ApiKey): KeyView {
  return {
    id: key.id,
    accountId: key.accountId,
    name: key.name ?? null,
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

/** A new key's text: `sk_live_` keys carry 238 bits, `pk_live_` keys (public by design) 190. */
export function newKeyText(kind: ApiKeyKind): string {
  return kind === 'secret' ? `sk_live_${randomBase62(40)}` : `pk_live_${randomBase62(32)}`;
}

/**
 * The stored record of a key: only its hash and a display prefix, never the key. The one place a key record is
 * made; secret keys get no widget or origins, public keys only the chat scope.
 */
export async function apiKeyRecord(
  ctx: Pick<AdminContext, 'clock' | 'ids'>,
  key: string,
  fields:
    | { kind: 'secret'; accountId: string; name?: string; scopes: Scope[]; callbackUrl: string | null; callbackSecret: string | null; replyFormat: ReplyFormat }
    | { kind: 'public'; accountId: string; widgetId: string; allowedOrigins: string[] },
): Promise<ApiKey> {
  const common = { id: ctx.ids.random('key'), prefix: key.slice(0, 12), hash: await sha256Hex(key), createdAt: ctx.clock.now(), revokedAt: null };
  return fields.kind === 'secret'
    ? { ...common, ...fields, widgetId: null, allowedOrigins: [] }
    : { ...common, ...fields, scopes: ['conversations:chat'], callbackUrl: null, callbackSecret: null, replyFormat: 'markdown' };
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

/** A secret that signs deliveries (a key's callbacks, a webhook's events): 256 random bits (issue: callback secrets). */
export function newSigningSecret(): string {
  // 32 random bytes in base64: Standard Webhooks verifiers base64-decode what follows `whsec_` (signing.ts).
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** A server key (`sk_live_…`) of the account; with a callback URL, also the secret that signs its callbacks. */
export async function createApiKey(ctx: AdminContext, input: CreateKeyInput): Promise<CreatedKey> {
  const account = await requireAccount(ctx, input.accountId);
  const scopes = parseScopes(input.scopes);
  const replyFormat = (input.replyFormat ?? 'markdown') as ReplyFormat;
  if (!REPLY_FORMATS.includes(replyFormat)) {
    throw new SvcError('validation_failed', `reply format must be one of ${REPLY_FORMATS.join(', ')}.`, { field: 'replyFormat' });
  }
  const callbackUrl = input.callbackUrl === undefined ? null : deliveryUrl(ctx, input.callbackUrl, { label: 'callback URL', field: 'callbackUrl' });
  const name = input.name?.trim();
  if (name !== undefined && (name === '' || name.length > 100)) throw new SvcError('validation_failed', 'name must be 1-100 characters.', { field: 'name' });
  const key = newKeyText('secret');
  const callbackSecret = callbackUrl === null ? null : newSigningSecret();
  const apiKey = await apiKeyRecord(ctx, key, {
    kind: 'secret',
    accountId: account.id,
    ...(name === undefined ? {} : { name }),
    scopes,
    callbackUrl,
    callbackSecret,
    replyFormat,
  });
  await ctx.store.insertApiKey(apiKey);
  return { apiKey, key, callbackSecret };
}

export async function listKeys(ctx: AdminContext, scope: AccountScope): Promise<ApiKey[]> {
  return ctx.store.listApiKeys(accountFilter(scope));
}

async function loadActiveKey(ctx: AdminContext, scope: AccountScope, id: string): Promise<ApiKey> {
  const apiKey = await ctx.store.getApiKey(id);
  return owned(scope, apiKey && apiKey.revokedAt === null ? apiKey : null, { code: 'not_found', message: `No active key with id ${id}.`, field: 'id' });
}

/** Replaces a key's callback secret; the new one is returned once. Deliveries still pending sign with it. */
export async function rotateCallbackSecret(ctx: AdminContext, scope: AccountScope, id: string): Promise<{ apiKey: ApiKey; callbackSecret: string }> {
  const apiKey = await loadActiveKey(ctx, scope, id);
  if (!apiKey.callbackUrl) {
    throw new SvcError('validation_failed', `Key ${id} has no callback URL, so it has no callback secret.`, { field: 'id' });
  }
  const callbackSecret = newSigningSecret();
  await ctx.store.setApiKeyCallbackSecret(id, callbackSecret);
  return { apiKey: { ...apiKey, callbackSecret }, callbackSecret };
}

/** From now on the key authenticates nothing; its record stays for the listings. */
export async function revokeKey(ctx: AdminContext, scope: AccountScope, id: string): Promise<ApiKey> {
  const apiKey = await loadActiveKey(ctx, scope, id);
  const at = ctx.clock.now();
  // Revoked meanwhile by another call: the same answer as for a key that was never active.
  if (!(await ctx.store.revokeApiKey(id, at))) return loadActiveKey(ctx, scope, id);
  return { ...apiKey, revokedAt: at };
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
export async function createPublicKey(ctx: AdminContext, scope: AccountScope, input: CreatePublicKeyInput): Promise<CreatedKey> {
  const widget = await loadOwnWidget(ctx, scope, input.widgetId);
  if (input.origins.length === 0) {
    throw new SvcError('validation_failed', 'A public key needs at least one allowed origin, e.g. --origins https://shop.example.', {
      field: 'origins',
    });
  }
  const allowedOrigins = [...new Set(input.origins.map(normaliseOrigin))];
  const key = newKeyText('public');
  const apiKey = await apiKeyRecord(ctx, key, { kind: 'public', accountId: widget.accountId, widgetId: widget.id, allowedOrigins });
  await ctx.store.insertApiKey(apiKey);
  return { apiKey, key, callbackSecret: null };
}

/**
 * The demo page's public key for `origins`, created on first use (one key per configuration, not per request), or
 * null while no demo widget was seeded. Public keys are public by design (the page embeds it), so keeping its text as
 * a setting exposes nothing a visitor of the page does not see anyway.
 */
export async function demoPublicKey(ctx: AdminContext, origins: string[]): Promise<string | null> {
  const { store } = ctx;
  const widgetId = await store.getOrCreateSetting('demo_widget_id', () => '');
  if (!widgetId) return null;
  const widget = await store.getWidget(widgetId);
  if (!widget) return null;
  const key = await store.getOrCreateSetting(`demo_public_key:${origins.join(' ')}`, () => newKeyText('public'));
  if (!(await store.findApiKeyByHash(await sha256Hex(key)))) {
    await store.insertApiKey(await apiKeyRecord(ctx, key, { kind: 'public', accountId: widget.accountId, widgetId: widget.id, allowedOrigins: origins }));
  }
  return key;
}
