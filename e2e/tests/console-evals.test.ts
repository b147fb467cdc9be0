import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorAdmin } from '@svc/server';
import { auditConsole, createOwner, OWNER } from '../support/console.js';
import { useE2E } from '../support/setup.js';

/**
 * The console's evals (DESIGN.md section 12) in Chromium against the real service and its local agent: a visitor's
 * conversation becomes an eval case from its page, and a widget's suites run from the evals screen, each case
 * passing or failing, with no axe violation.
 */
const env = useE2E();
let sessionId: string;

beforeAll(async () => {
  const { store, widget, url } = env.service;
  await createOwner(store, widget.accountId);
  const admin = operatorAdmin(store);
  await admin.putEvalSuite(widget.accountId, { widgetId: widget.id, name: 'shop' }, {
    cases: [
      { name: 'payment', question: 'Which payment methods do you accept?', expect: { answered: true, cites: ['Payment methods'] } },
      { name: 'wrong on purpose', question: 'How can I track my order?', expect: { contains: 'carrier pigeon' } },
    ],
  });
  // A visitor's conversation, through the public API with a server key.
  const { key } = await admin.createApiKey({ accountId: widget.accountId, scopes: ['conversations:chat'] });
  const post = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{
      data: { sessionId: string };
    }>;
  sessionId = (await post(`/widgets/${widget.id}/conversations`, { visitorId: 'visitor-evals' })).data.sessionId;
  await post(`/widgets/${widget.id}/conversations/${sessionId}/messages`, { content: 'How can I track my order?' });
});

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

describe('the console: evals', () => {
  it('adds a conversation as an eval case, runs the suites and shows each case passing or failing', async () => {
    const { widget } = env.service;
    const { page } = await env.visit('about:blank');
    await page.goto(`${env.service.url}/console/#/conversations/${widget.id}/${sessionId}`);
    await signIn(page);
    await page.getByRole('heading', { name: /Conversation with visitor-evals/ }).waitFor();

    await page.getByLabel('Eval suite').fill('from-chats');
    await page.getByRole('button', { name: 'Add as an eval case' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Added to the suite' }).textContent()).toContain('“from-chats”, which now has 1 case');
    expect(await auditConsole(page), 'axe on the conversation').toEqual([]);

    await page.getByRole('link', { name: 'Open the evals' }).click();
    await page.getByRole('heading', { name: 'Evals', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.eval-suites li strong').allTextContents()).toEqual(['from-chats', 'shop']);

    await page.getByRole('button', { name: 'Run shop' }).click();
    const shop = page.getByRole('heading', { name: /Run of “shop”: failed \(1 of 2 passed\)/ });
    await shop.waitFor({ timeout: 15_000 });
    const rows = page.locator('.eval-run tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').first().textContent()).toBe('Passed');
    expect(await rows.nth(1).locator('td').first().textContent()).toBe('Failed');
    expect(await rows.nth(1).textContent()).toContain('contains: the reply does not contain "carrier pigeon"');
    expect(await auditConsole(page), 'axe on the evals').toEqual([]);

    await page.getByRole('button', { name: 'Run from-chats' }).click();
    await page.getByRole('heading', { name: /Run of “from-chats”: passed \(1 of 1 passed\)/ }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.eval-runs button').count()).toBe(2);
  });
});
