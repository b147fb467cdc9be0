import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { verifyCallback, type CallbackEvent } from '@svc/callbacks';
import { randomBase62 } from '@svc/core';
import { readEventStream } from '@svc/core/schemas';
import { operatorAdmin } from '../cli/operator-admin.js';
import { loadConfig } from '../config.js';
import { openStore } from '../open-store.js';
import { CLI_SCRIPT, kill, nodeWithTsx, runCli } from '../testing/processes.js';
import { startReceiver, type ReceivedDelivery } from '../testing/receiver.js';

/**
 * Issue 13, "Done when": a handoff end to end, over real sockets between processes, on PGlite (`svc start` holds the
 * embedded database and the CLI forwards to it) and on PostgreSQL (the CLI writes to the database itself and the
 * server hears of it by NOTIFY). The visitor asks for a person → `session.handoff` (requested) → an operator accepts
 * and replies from the CLI → the reply reaches the API client's callback URL and the session event stream → release →
 * the AI answers the next message. The receivers are on loopback, so private callbacks are allowed here.
 */
const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BASE_ENV = { LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false', SVC_ALLOW_PRIVATE_CALLBACKS: 'true' };

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

type Open = () => Promise<Record<string, string>>;

const STORES: [string, Open][] = [
  [
    'PGlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'svc-handoff-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return { SVC_DATA_DIR: join(dir, 'data') };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = `t_handoff_${randomBase62(8).toLowerCase()}`;
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema "${schema}"`);
      await admin.end();
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      });
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return { DATABASE_URL: url.toString() };
    },
  ],
];

/** An account, a widget, a server key with a callback URL and a `session.handoff` webhook endpoint. */
async function provision(env: Record<string, string>, callbackUrl: string, webhookUrl: string) {
  const store = await openStore(loadConfig(env));
  try {
    // The receivers listen on loopback, so this test's operator allows private callback addresses.
    const admin = operatorAdmin(store, { allowPrivateCallbacks: true });
    const account = await admin.createAccount({ name: 'Handoff', credits: 1000 });
    const widget = await admin.createWidget({ accountId: account.id, name: 'Shop' });
    const created = await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'], callbackUrl });
    const hook = await admin.createWebhook({ accountId: account.id, url: webhookUrl, events: ['session.handoff'] });
    return { account, widget, key: { key: created.key, callbackSecret: created.callbackSecret! }, hook };
  } finally {
    await store.close();
  }
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, nodeWithTsx(CLI_SCRIPT, ['start', '--port', '0']), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(err)));
  });
  return { child, url };
}

/** What a receiver without @svc/callbacks does: HMAC-SHA256 over `<timestamp>.<raw body>`, constant-time compare. */
function plainReceiverAccepts(delivery: ReceivedDelivery, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(`${delivery.headers['x-svc-timestamp']}.${delivery.body}`).digest();
  return delivery.headers['x-svc-signature']!.split(',').some((hex) => {
    const candidate = Buffer.from(hex.trim(), 'hex');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

async function verified(delivery: ReceivedDelivery, secret: string): Promise<CallbackEvent> {
  expect(plainReceiverAccepts(delivery, secret)).toBe(true);
  return (await verifyCallback({ body: delivery.body, headers: delivery.headers }, { secret })).event;
}

interface StreamedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Reads `GET …/events` over a real socket, as any SSE client would; `close()` drops the connection. */
function follow(url: string, key: string, lastEventId?: string) {
  const events: StreamedEvent[] = [];
  const controller = new AbortController();
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = (async () => {
    const res = await fetch(url, { headers: { 'x-api-key': key, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    opened();
    for await (const raw of readEventStream(res.body!)) events.push({ id: raw.id!, event: raw.event, data: JSON.parse(raw.data) as Record<string, unknown> });
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events,
    open,
    async waitFor(count: number): Promise<StreamedEvent[]> {
      await expect.poll(() => events.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
      return events.slice(0, count);
    },
    async close(): Promise<void> {
      controller.abort();
      await done;
    },
  };
}

describe.each(STORES)('handoff to a person, end to end over HTTP and the CLI (%s)', (_name, open) => {
  it('hands off, answers as a person on the callback URL and the event stream, releases, and the AI answers again', async () => {
    const env = { ...BASE_ENV, ...(await open()) };
    const callbacks = await startReceiver();
    const hooks = await startReceiver();
    cleanups.push(callbacks.close, hooks.close);
    // Provisioned before the server starts (the embedded database is then the test's to open): fewer processes on a
    // shared machine. The operator's side below is the CLI as a person runs it, through the running server.
    const { widget, key, hook } = await provision(env, callbacks.url, hooks.url);
    const server = await startServer(env);
    cleanups.push(() => kill(server.child));
    const cli = async (...args: string[]) => {
      const result = await runCli([...args, '--json'], env);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout) as Record<string, unknown> & { id: string };
    };

    const headers = { 'content-type': 'application/json', 'x-api-key': key.key };
    const base = `${server.url}/widgets/${widget.id}/conversations`;
    const call = async (path: string, body?: object) => {
      const res = await fetch(`${base}${path}`, { method: body ? 'POST' : 'GET', headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; meta: { creditsConsumed: number } } };
    };
    const created = await call('', { visitorId: 'visitor-1' });
    expect(created.status).toBe(201);
    const sessionId = created.body.data['sessionId'] as string;
    const eventsUrl = `${base}/${sessionId}/events`;

    // The API client follows the session live from now on.
    const stream = follow(eventsUrl, key.key);
    await stream.open;

    // 1. The visitor asks for a person: the reply says one will answer, and the session shows the request.
    const asked = await call(`/${sessionId}/messages`, { content: 'Can I talk to a person?' });
    expect(asked.status).toBe(200);
    expect(asked.body.data['content']).toBe("Of course: I'm passing you to a person. Someone from our team will answer you here shortly.");
    expect((await call(`/${sessionId}`)).body.data['handoff']).toEqual({ state: 'requested', since: expect.any(String), operator: null });
    const [requested] = await hooks.waitFor(1);
    const requestedEvent = await verified(requested!, hook.secret);
    expect(requestedEvent).toMatchObject({ event: 'session.handoff', state: 'requested', data: { sessionId, handoff: { state: 'requested' } } });

    // 2. While a person has it the AI is silent: stored, 202 with no message id, nothing billed.
    const silent = await call(`/${sessionId}/messages`, { content: 'Hello? My order is late.' });
    expect(silent).toEqual({ status: 202, body: { data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } } });
    const streamed = await fetch(`${base}/${sessionId}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'Still there?', response_type: 'stream' }) });
    const streamedEvents = [];
    for await (const raw of readEventStream(streamed.body!)) streamedEvents.push([raw.event, JSON.parse(raw.data)]);
    expect(streamedEvents.map(([event]) => event)).toEqual(['message.start', 'message.handoff']);
    expect(streamedEvents[1]![1]).toEqual({ data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } });

    // 3. An operator takes over and replies from the CLI.
    const accepted = await cli('handoff', 'accept', '--session', sessionId, '--as', 'Dana');
    expect(accepted['handoff']).toMatchObject({ state: 'active', operator: { id: null, name: 'Dana' } });
    const sent = await cli('handoff', 'reply', '--session', sessionId, '--text', 'Hi, Dana here. Your order ships today.', '--as', 'Dana');
    expect(sent).toMatchObject({ messageId: expect.stringMatching(/^msg_/), role: 'assistant', author: { type: 'operator', name: 'Dana' } });

    // ... it reaches the API client's callback URL, signed with the key's callback secret ...
    const [completed] = await callbacks.waitFor(1, 20_000);
    const completedEvent = await verified(completed!, key.callbackSecret);
    expect(completedEvent).toMatchObject({
      event: 'message.completed',
      messageId: sent['messageId'],
      sessionId,
      data: { content: 'Hi, Dana here. Your order ships today.', author: { type: 'operator', name: 'Dana' }, credits: { chat: 0 } },
    });
    expect(completed!.headers['x-svc-event']).toBe('message.completed');

    // ... and the event stream, in order, once each.
    const live = await stream.waitFor(3);
    expect(live.map((event) => [event.event, (event.data['handoff'] as { state?: string } | null | undefined)?.state ?? event.data['content']])).toEqual([
      ['session.updated', 'requested'],
      ['session.updated', 'active'],
      ['message.created', 'Hi, Dana here. Your order ships today.'],
    ]);
    expect(live[2]!.data).toMatchObject({ messageId: sent['messageId'], role: 'assistant', author: { type: 'operator', name: 'Dana' } });

    // 4. A dropped connection resumes with Last-Event-ID: what happened meanwhile, nothing twice.
    await stream.close();
    const released = await cli('handoff', 'release', '--session', sessionId);
    expect(released['handoff']).toBeNull();
    const resumed = follow(eventsUrl, key.key, live[2]!.id);
    const [afterDrop] = await resumed.waitFor(1);
    expect(afterDrop).toMatchObject({ event: 'session.updated', data: { sessionId, handoff: null, status: 'active' } });
    expect(BigInt(afterDrop!.id)).toBeGreaterThan(BigInt(live[2]!.id));

    // 5. Back to the AI: the next message is answered (and billed) again.
    const answered = await call(`/${sessionId}/messages`, { content: 'Thanks! Do you sell tents?' });
    expect(answered.status).toBe(200);
    expect(answered.body.data['content']).toEqual(expect.any(String));
    expect(answered.body.meta.creditsConsumed).toBeGreaterThan(0);

    // Resolving from the CLI ends the session (reason operator) and shows on the stream.
    await cli('conversations', 'resolve', '--session', sessionId);
    await resumed.waitFor(2);
    expect(resumed.events.map((event) => event.data['status'])).toEqual(['active', 'resolved']);
    await resumed.close();

    // Each handoff change was delivered once, signed with the endpoint's secret (and checked by @svc/callbacks).
    await hooks.waitFor(3, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(hooks.received).toHaveLength(3);
    const states = await Promise.all(hooks.received.map(async (delivery) => (await verified(delivery, hook.secret)) as { state: string }));
    expect(states.map((event) => event.state)).toEqual(['requested', 'active', 'released']);
    expect(callbacks.received).toHaveLength(1);

    const history = (await call(`/${sessionId}/messages`)).body.data as unknown as { role: string; content: string; author?: { name: string } }[];
    expect(history.map((item) => [item.role, item.author?.name ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['user', null],
      ['user', null],
      ['assistant', 'Dana'],
      ['user', null],
      ['assistant', null],
    ]);
  }, 180_000);
});
