import { afterEach, describe, expect, it, vi } from 'vitest';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 30_000 });
import type { LookupAddress } from 'node:dns';
import { verifyCallback } from '@svc/callbacks';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';
import { startReceiver } from '../testing/receiver.js';
import { selfSignedCertificate } from '../testing/test-certificate.js';
import { policyLookup } from '../net/connect.js';
import { operatorAdmin } from '../cli/operator-admin.js';

const HOST = 'callbacks.example';
const certificate = selfSignedCertificate(HOST);

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function lookupOnce(answers: LookupAddress[], dialled: string[]): Promise<{ error: NodeJS.ErrnoException | null; address: string }> {
  const lookup = policyLookup({
    allowPrivate: false,
    resolve: async () => answers,
    dialApproved: (approved) => {
      dialled.push(approved);
      return approved;
    },
  });
  return new Promise((resolve) => lookup(HOST, {}, (error, address) => resolve({ error, address: address as string })));
}

describe('callback address policy at connect time (issue 10, defect 1)', () => {
  it('connects to a public IPv4 answer from DNS (the first policy dropped every IPv4 answer)', async () => {
    const dialled: string[] = [];
    expect(await lookupOnce([{ address: '8.8.8.8', family: 4 }], dialled)).toEqual({ error: null, address: '8.8.8.8' });
    expect(await lookupOnce([{ address: '2606:4700:4700::1111', family: 6 }], dialled)).toEqual({ error: null, address: '2606:4700:4700::1111' });
    expect(dialled).toEqual(['8.8.8.8', '2606:4700:4700::1111']);
  });

  it('skips private answers and refuses a name that resolves only to private addresses (DNS rebinding)', async () => {
    const dialled: string[] = [];
    const mixed = await lookupOnce(
      [
        { address: '10.0.0.5', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ],
      dialled,
    );
    expect(mixed).toEqual({ error: null, address: '1.1.1.1' });
    const refused = await lookupOnce(
      [
        { address: '127.0.0.1', family: 4 },
        { address: '169.254.169.254', family: 4 },
        { address: 'fd00::1', family: 6 },
      ],
      dialled,
    );
    expect(refused.error?.code).toBe('EPRIVATE');
    expect(dialled).toEqual(['1.1.1.1']);
  });
});

describe.each(PRODUCTION_STORES)('callback delivery with the default policy (%s)', (_name, open) => {
  /**
   * Private callbacks are NOT allowed here. DNS for callbacks.example is answered by the test, the policy judges
   * the answer as it would a real one, and only an address it approved is dialled, at a loopback https receiver
   * (the test-only dial mapping), so no traffic leaves the machine.
   */
  async function setup(answers: LookupAddress[]) {
    const { store, dispose } = await open();
    cleanups.push(dispose);
    const receiver = await startReceiver([200], { tls: certificate });
    cleanups.push(receiver.close);
    const port = new URL(receiver.url).port;
    const h = await createHarness({ store, agent: createScriptedAgent(() => ({ content: 'Delivered by policy.' })) });
    const created = await operatorAdmin(store).createApiKey({
      accountId: h.account.id,
      scopes: ['conversations:chat'],
      callbackUrl: `https://${HOST}:${port}/hooks/svc`,
    });
    const dialled: string[] = [];
    const workers = h.runtime.startWorkers({
      pollMs: 50,
      retryDelaysMs: [0, 0, 0],
      connect: {
        resolve: async (hostname) => (hostname === HOST ? answers : Promise.reject(new Error(`unexpected lookup of ${hostname}`))),
        dialApproved: (approved) => {
          dialled.push(approved);
          return '127.0.0.1';
        },
        ca: certificate.cert,
      },
    });
    cleanups.push(() => workers.stop());
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hello', response_type: 'callback' }, { key: created.key });
    expect(res.status).toBe(202);
    return { h, store, receiver, dialled, secret: created.callbackSecret!, keyId: created.apiKey.id };
  }

  it('delivers to a receiver whose name resolves to a public IPv4 address', async () => {
    const { receiver, dialled, secret } = await setup([
      { address: '10.1.2.3', family: 4 },
      { address: '93.184.215.14', family: 4 },
    ]);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.headers.host).toBe(`${HOST}:${new URL(receiver.url).port}`);
    const verified = await verifyCallback({ body: delivery!.body, headers: delivery!.headers }, { secret });
    expect(verified.event).toMatchObject({ event: 'message.completed', data: { content: 'Delivered by policy.' } });
    // The private answer was never dialled: only the public one the policy approved.
    expect(new Set(dialled)).toEqual(new Set(['93.184.215.14']));
  });

  it('delivers to a receiver whose name resolves to a public IPv6 address', async () => {
    const { receiver, dialled } = await setup([{ address: '2001:4860:4860::8888', family: 6 }]);
    await receiver.waitFor(1);
    expect(new Set(dialled)).toEqual(new Set(['2001:4860:4860::8888']));
  });

  it('refuses to connect when the name resolves only to private addresses, and records why', async () => {
    const { store, receiver, dialled, keyId } = await setup([
      { address: '127.0.0.1', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ]);
    const deadline = Date.now() + 15_000;
    let failed;
    while (Date.now() < deadline) {
      const page = await store.listDeliveries({ limit: 10 });
      failed = page.find((d) => d.keyId === keyId && d.status === 'failed');
      if (failed) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, lastError: expect.stringMatching(/private/) });
    expect(dialled).toEqual([]);
    expect(receiver.received).toEqual([]);
  });
});
