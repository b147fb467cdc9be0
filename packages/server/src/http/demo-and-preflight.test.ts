import { afterEach, describe, expect, it, vi } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { Store } from '@svc/core';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { seedDemo } from '../seed.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';
import { operatorAdmin } from '../cli/operator-admin.js';
import { ANY_ACCOUNT } from '@svc/core';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 60_000 });

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function serve(store: Store, publicUrl?: string) {
  const runtime = await createRuntime({
    config: { cursorSecret: 'test-cursor-secret-0123456789abcdef', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000, publicUrl },
    store,
    logger: createLogger('silent'),
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => server.close());
  return server;
}

/** A raw request, so the test controls the Host header as an attacker would. */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const publicKeyCount = async (store: Store): Promise<number> => (await store.listApiKeys()).filter((k) => k.kind === 'public').length;

describe.each(PRODUCTION_STORES)('/demo and CORS preflights on %s (issue 10, defect 3)', (_name, open) => {
  it('/demo does not mint a key per Host header: one key, bound to this server’s own origins', async () => {
    const { store, dispose } = await open();
    cleanups.push(dispose);
    await seedDemo(store);
    const server = await serve(store);
    const before = await publicKeyCount(store);
    for (let i = 0; i < 20; i++) {
      const res = await raw(server.port, '/demo', { Host: `attacker-${i}.example` });
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('SVC_PUBLIC_URL') } });
    }
    expect(await publicKeyCount(store)).toBe(before);

    const pages = [await raw(server.port, '/demo', { Host: `127.0.0.1:${server.port}` }), await raw(server.port, '/demo', { Host: `localhost:${server.port}` })];
    const keys = pages.map((page) => /data-api-key="(pk_live_[A-Za-z0-9]+)"/.exec(page.body)?.[1]);
    expect(keys[0]).toBeDefined();
    expect(keys[1]).toBe(keys[0]);
    expect(await publicKeyCount(store)).toBe(before + 1);
    const [demoKey] = (await store.listApiKeys()).filter((k) => k.kind === 'public');
    expect(demoKey!.allowedOrigins).toEqual([`http://localhost:${server.port}`, `http://127.0.0.1:${server.port}`]);
  });

  it('/demo binds its key to SVC_PUBLIC_URL whatever Host says', async () => {
    const { store, dispose } = await open();
    cleanups.push(dispose);
    await seedDemo(store);
    const server = await serve(store, 'https://chat.example.com');
    for (const host of ['chat.example.com', 'evil.example', `127.0.0.1:${server.port}`]) {
      const page = await raw(server.port, '/demo', { Host: host });
      expect(page.status).toBe(200);
    }
    const publicKeys = (await store.listApiKeys()).filter((k) => k.kind === 'public');
    expect(publicKeys.map((k) => k.allowedOrigins)).toEqual([['https://chat.example.com']]);
  });

  it('answers preflights from the origin index: allowed origins get 204, others 403 JSON, malformed widget ids 403', async () => {
    const { store, dispose } = await open();
    cleanups.push(dispose);
    const seed = (await seedDemo(store))!;
    await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: seed.widgetId, origins: ['https://shop.example'] });
    const revoked = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: seed.widgetId, origins: ['https://old.example'] });
    await store.revokeApiKey(revoked.apiKey.id, new Date());
    const server = await serve(store);
    // The store is never asked for every key.
    const listAll = vi.spyOn(store, 'listApiKeys');
    const preflight = (origin: string, path = `/widgets/${seed.widgetId}/conversations`) =>
      raw(server.port, path, { Origin: origin, 'Access-Control-Request-Method': 'POST' }, 'OPTIONS');

    const allowed = await preflight('https://shop.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect((await preflight('https://shop.example', '/widget/config')).status).toBe(204);
    for (const res of [await preflight('https://old.example'), await preflight('https://evil.example'), await preflight('https://shop.example', '/widgets/wgt_other/conversations'), await preflight('https://shop.example', '/widgets/%E0%A4%A/conversations')]) {
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'origin_not_allowed' } });
    }
    expect(listAll).not.toHaveBeenCalled();
  });
});
