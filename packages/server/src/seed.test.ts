import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@svc/core';
import { operatorAdmin } from './cli/operator-admin.js';
import { createLogger } from './logger.js';
import { createRuntime } from './runtime.js';
import { DEMO_OPERATOR_EMAIL, ensureDemoOperator, seedDemo } from './seed.js';

async function signIn(store: ReturnType<typeof createMemoryStore>, email: string, password: string) {
  const runtime = await createRuntime({ config: { cursorSecret: 'test-cursor-secret-0123456789abcdef', syncTimeoutMs: 1000, agentTimeoutMs: 1000 }, store, logger: createLogger('silent') });
  const res = await runtime.app.request('/admin/v1/sessions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return { status: res.status, body: (await res.json()) as { data: { operator: { role: string; accountId: string } } } };
}

describe('the demo seed (pnpm start)', () => {
  it('creates an owner operator of the demo account whose one-time password signs in to the console, once', async () => {
    const store = createMemoryStore();
    const seed = (await seedDemo(store))!;
    expect(seed.operator).toEqual({ email: DEMO_OPERATOR_EMAIL, password: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const signedIn = await signIn(store, seed.operator.email, seed.operator.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.operator).toMatchObject({ role: 'owner', accountId: seed.accountId });
    expect(JSON.stringify(await store.listOperators(seed.accountId))).not.toContain(seed.operator.password);

    expect(await seedDemo(store)).toBeNull();
    expect(await ensureDemoOperator(store)).toBeNull();
  });

  it('gives a demo database seeded before the console its owner operator on the next demo start, and only then', async () => {
    const store = createMemoryStore();
    const admin = operatorAdmin(store);
    const account = await admin.createAccount({ name: 'Demo' });
    const widget = await admin.createWidget({ accountId: account.id, name: 'Northwind Assistant' });
    await store.getOrCreateSetting('demo_widget_id', () => widget.id);

    const operator = (await ensureDemoOperator(store))!;
    expect((await signIn(store, operator.email, operator.password)).body.data.operator.accountId).toBe(account.id);
    expect(await ensureDemoOperator(store)).toBeNull();
    expect(await ensureDemoOperator(createMemoryStore())).toBeNull();
  });
});
