import { operatorAdmin } from '@svc/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditConsole, createOwner, cspViolations, OWNER } from '../support/console.js';
import { useE2E } from '../support/setup.js';

/**
 * The console's questions page (DESIGN.md section 12) in Chromium: the questions the assistant could not answer,
 * grouped, with their trend and conversations; "Write the answer" adds a knowledge document the next turn answers
 * from; dismissing takes a group off the list. Audited with axe-core, under the console's strict CSP.
 */
const env = useE2E();
let key = '';

beforeAll(async () => {
  await createOwner(env.service.store, env.service.widget.accountId);
  key = (await operatorAdmin(env.service.store).createApiKey({ accountId: env.service.widget.accountId, scopes: ['conversations:chat'] })).key;
});

/** A visitor's question through the API, in a session of its own: the reply's sources. */
async function ask(content: string): Promise<Array<{ documentId: string }>> {
  const base = `${env.service.url}/widgets/${env.service.widget.id}/conversations`;
  const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
  const session = await (await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `visitor-${Math.random().toString(36).slice(2)}` }) })).json();
  const reply = await (await fetch(`${base}/${session.data.sessionId}/messages`, { method: 'POST', headers, body: JSON.stringify({ content }) })).json();
  return reply.data.sources;
}

describe('the questions page', () => {
  it('lists unanswered questions grouped, writes the answer the next turn uses, dismisses; axe clean', async () => {
    expect(await ask('Can I bring my dog on a cruise?')).toEqual([]);
    await ask('Can I take my dog on the cruise?');
    await ask('Do you sell moon rocks?');

    const { page } = await env.visit('about:blank');
    const refused = cspViolations(page);
    await page.goto(`${env.service.url}/console/`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Questions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Questions' }).waitFor();

    const groups = page.getByTestId('question-group');
    await expect.poll(() => groups.count()).toBe(2);
    const dogs = groups.filter({ hasText: 'Can I bring my dog on a cruise?' });
    expect(await dogs.innerText()).toMatch(/Unanswered · asked 2 times/);
    expect(await dogs.getByRole('img').getAttribute('aria-label')).toMatch(/^Last 14 days: 2 times/);
    expect(await dogs.getByRole('list', { name: 'Conversations that asked' }).getByRole('link').count()).toBe(2);
    expect(await dogs.getByRole('link').first().getAttribute('href')).toMatch(new RegExp(`^#/conversations/${env.service.widget.id}/`));
    expect(await auditConsole(page), 'axe on the questions page').toEqual([]);

    await dogs.getByRole('button', { name: 'Write the answer' }).click();
    const form = page.getByRole('form', { name: 'Answer: Can I bring my dog on a cruise?' });
    expect(await form.getByLabel('Title').inputValue()).toBe('Can I bring my dog on a cruise?');
    await form.getByLabel('Answer').fill('Yes: dogs are welcome on every cruise we sell, on a leash, with their vaccination record. Bring your dog on board for free.');
    expect(await auditConsole(page), 'axe with the answer form open').toEqual([]);
    await form.getByRole('button', { name: 'Add to the knowledge base' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Added' }).innerText()).toBe('Added “Can I bring my dog on a cruise?” to the knowledge base.');
    await expect.poll(() => groups.count()).toBe(1);

    // The very next turn answers from the new document.
    const [document] = (await env.service.store.listQuestionGroups({ accountId: env.service.widget.accountId, status: 'resolved', limit: 5 })).map((group) => group.documentId);
    expect(await ask('Can I bring my dog on a cruise?')).toEqual([expect.objectContaining({ documentId: document })]);

    await groups.first().getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => groups.count()).toBe(0);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('resolved');
    await expect.poll(() => groups.count()).toBe(1);
    expect(await groups.first().getByRole('button', { name: 'Write the answer' }).count()).toBe(0);
    expect(refused).toEqual([]);
  });
});
