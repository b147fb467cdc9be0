import { request as httpRequest } from 'node:http';
import type { Scope, Store } from '@svc/core';
import { readEventStream, type ServerSentEvent } from '@svc/core/schemas';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createLogger } from '../logger.js';
import { listen, type RunningServer } from '../node-server.js';
import { createRuntime, type Runtime } from '../runtime.js';

/** Reads an event stream's first half second, then hangs up. */
async function firstMoments(res: Response, controller: AbortController): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const stop = setTimeout(() => controller.abort(), 500);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Aborted: the stream was read for as long as wanted.
  } finally {
    clearTimeout(stop);
  }
  return text;
}

/** The password of every operator the fixture creates. */
export const OPERATOR_PASSWORD = 'correct horse battery staple';

export interface AdminResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary response fields; the schemas pin their types elsewhere.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** The console cookie (`svc_console=…`). */
  cookie?: string;
  csrf?: string;
  /** A server key, sent as `Authorization: Bearer …` (or as `X-API-Key` with `keyHeader: 'x-api-key'`). */
  key?: string;
  keyHeader?: 'authorization' | 'x-api-key';
  origin?: string;
  /** The client address, through the one trusted proxy the fixture's server is configured with. */
  address?: string;
  headers?: Record<string, string>;
}

export interface Console {
  cookie: string;
  csrf: string;
  setCookie: string;
}

/**
 * A real server on a socket (127.0.0.1, one trusted proxy so tests choose their client address with
 * X-Forwarded-For) over `store`, with two accounts: A (an owner, an agent, an admin key, a key without `admin`) and
 * B (an owner). What the admin API security tests and the console's tests start from.
 */
export async function startAdminFixture(store: Store, options: { requestsPerMinute?: number } = {}) {
  const runtime: Runtime = await createRuntime({
    config: {
      cursorSecret: 'test-cursor-secret-0123456789abcdef',
      syncTimeoutMs: 25_000,
      agentTimeoutMs: 60_000,
      publicRateLimitPerMinute: options.requestsPerMinute ?? 100_000,
      trustProxy: 1,
    },
    store,
    logger: createLogger('silent'),
  });
  const server: RunningServer = await listen(runtime, { port: 0, host: '127.0.0.1' });
  const admin = operatorAdmin(store);

  const account = async (name: string) => {
    const created = await admin.createAccount({ name, credits: 1000 });
    const operator = (email: string, role: 'owner' | 'agent') =>
      admin.createOperator(created.id, { email, name: `${name} ${role}`, role, password: OPERATOR_PASSWORD });
    return { account: created, operator };
  };
  const a = await account('Acme');
  const b = await account('Beta');
  const [ownerA, agentA, ownerB] = await Promise.all([
    a.operator('owner@acme.example', 'owner'),
    a.operator('agent@acme.example', 'agent'),
    b.operator('owner@beta.example', 'owner'),
  ]);
  const key = async (accountId: string, scopes: Scope[]) => (await admin.createApiKey({ accountId, scopes })).key;
  const adminKeyA = await key(a.account.id, ['admin']);
  const chatKeyA = await key(a.account.id, ['conversations:chat', 'knowledge:write']);

  let addresses = 0;
  /** A client address of its own, so throttles and limits of one test do not reach another. */
  const freshAddress = (): string => `198.51.100.${++addresses % 250}`;

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<AdminResponse> {
    const headers: Record<string, string> = { 'X-Forwarded-For': opts.address ?? '192.0.2.1', ...opts.headers };
    if (opts.cookie) headers.Cookie = opts.cookie;
    if (opts.csrf) headers['X-CSRF-Token'] = opts.csrf;
    if (opts.origin) headers.Origin = opts.origin;
    if (opts.key) {
      if (opts.keyHeader === 'x-api-key') headers['X-API-Key'] = opts.key;
      else headers.Authorization = `Bearer ${opts.key}`;
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const controller = new AbortController();
    const res = await fetch(`${server.url}${path}`, { method, headers, signal: controller.signal, ...(body === undefined ? {} : { body }) });
    // An event stream never ends: what it sent in its first moments is its answer here.
    const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? await firstMoments(res, controller) : await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies (204) stay text.
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** An event stream opened with `opts`: the events as they come, until `close()`. */
  async function events(path: string, opts: CallOptions = {}) {
    const controller = new AbortController();
    const headers: Record<string, string> = { 'X-Forwarded-For': opts.address ?? '192.0.2.1', ...opts.headers };
    if (opts.cookie) headers.Cookie = opts.cookie;
    if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
    const res = await fetch(`${server.url}${path}`, { headers, signal: controller.signal });
    const received: ServerSentEvent[] = [];
    const reading = res.body ? (async () => {
      for await (const event of readEventStream(res.body!)) received.push(event);
    })().catch(() => undefined) : Promise.resolve();
    return {
      res,
      received,
      async next(count: number, timeoutMs = 10_000): Promise<ServerSentEvent[]> {
        const deadline = Date.now() + timeoutMs;
        while (received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        return received.slice(0, count);
      },
      async close() {
        controller.abort();
        await reading;
      },
    };
  }

  async function signIn(email: string, password = OPERATOR_PASSWORD, address?: string): Promise<Console> {
    const res = await call('POST', '/admin/v1/sessions', { body: { email, password }, ...(address ? { address } : {}) });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0]!, csrf: res.body.data.csrfToken as string, setCookie };
  }

  /** A request with an arbitrary Host header (fetch may not set one), answered with its Set-Cookie. */
  function rawSignIn(host: string, email: string): Promise<{ status: number; setCookie: string[] }> {
    return new Promise((resolve, reject) => {
      const payload = JSON.stringify({ email, password: OPERATOR_PASSWORD });
      const req = httpRequest(
        `${server.url}/admin/v1/sessions`,
        { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), 'X-Forwarded-For': freshAddress() } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [] }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  return {
    store,
    runtime,
    server,
    accountA: a.account,
    accountB: b.account,
    ownerA,
    agentA,
    ownerB,
    /** Another operator, for a test that must not share one (throttled emails, changed passwords). */
    addOperator: (accountId: string, email: string, role: 'owner' | 'agent' = 'owner') =>
      admin.createOperator(accountId, { email, role, password: OPERATOR_PASSWORD }),
    adminKeyA,
    chatKeyA,
    freshAddress,
    call,
    events,
    signIn,
    rawSignIn,
    close: () => server.close(),
  };
}

export type AdminFixture = Awaited<ReturnType<typeof startAdminFixture>>;
