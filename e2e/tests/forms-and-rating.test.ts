import { describe, expect, it } from 'vitest';
import { useE2E, type Visit } from '../support/setup.js';
import { openBubble, reply, sendMessage, sessionIdOf, widget, type SeenRequest } from '../support/widget.js';

const env = useE2E();

/** The session the widget talks to, read from its requests. */
function currentSession(requests: SeenRequest[]): string {
  const id = requests.map(sessionIdOf).filter(Boolean).at(-1);
  if (!id) throw new Error('the widget has not written to a session yet');
  return id;
}

async function storedSession(requests: SeenRequest[]) {
  return env.service.store.getSession(env.service.widget.id, currentSession(requests));
}

async function startChat({ page, api }: Visit, text: string): Promise<SeenRequest[]> {
  await openBubble(page);
  await sendMessage(page, text);
  await reply(page, 1);
  return api;
}

describe('forms', () => {
  it('"talk to sales" shows the form; a bad email is caught inline; the answers reach the service', async () => {
    const visit = await env.visit(env.embed('/shop'));
    const { page } = visit;
    const w = widget(page);
    const requests = await startChat(visit, 'I would like to talk to sales');
    await w.form.waitFor({ state: 'visible' });
    expect(await w.form.innerText()).toContain('Talk to sales');

    const name = w.id('svc-input-name');
    const email = w.id('svc-input-email');
    await name.fill('Ada Lovelace');
    await email.fill('ada-at-example');
    await email.blur();
    const problem = w.id('svc-error-email');
    await problem.waitFor({ state: 'visible' });
    expect(await problem.innerText()).toMatch(/email/i);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-describedby')).toBe(await problem.getAttribute('id'));

    // Submitting as it is sends nothing and keeps the problem in view.
    await w.id('svc-form-submit').click();
    await problem.waitFor({ state: 'visible' });
    expect(requests.filter((r) => r.path.endsWith('/form-submissions'))).toEqual([]);

    await email.fill('ada@example.com');
    await problem.waitFor({ state: 'detached' });
    await w.id('svc-input-company').fill('Analytical Engines Ltd');
    await w.id('svc-form-submit').click();

    expect(await reply(page, 2)).toMatch(/received your answers to Talk to sales/);
    await w.id('svc-form-sent').waitFor({ state: 'visible' });
    const submitted = requests.filter((r) => r.path.endsWith('/form-submissions'));
    expect(submitted.map((r) => r.body)).toEqual([
      { formId: 'contact_sales', answers: { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Engines Ltd' }, timezone: 'UTC', response_type: 'stream' },
    ]);
    const history = await env.service.store.listMessages({ widgetId: env.service.widget.id, sessionId: currentSession(requests), limit: 10 });
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(history[2]!.content).toContain('ada@example.com');
  });
});

describe('rating', () => {
  it('after "bye" ends the conversation, a thumbs up is stored as positive', async () => {
    const visit = await env.visit(env.embed('/shop'));
    const { page } = visit;
    const w = widget(page);
    const requests = await startChat(visit, 'Do you ship to Canada?');
    await sendMessage(page, 'Thanks, bye!');
    expect(await reply(page, 2)).toMatch(/Goodbye/);
    await w.rating.waitFor({ state: 'visible' });
    expect(await w.input.count()).toBe(0);

    await w.id('svc-rate-positive').click();
    await expect.poll(async () => (await storedSession(requests))?.rating).toBe('positive');
    expect((await storedSession(requests))?.status).toBe('resolved');
    expect(await w.id('svc-rate-positive').getAttribute('aria-pressed')).toBe('true');
  });

  it('the End button ends the conversation, and a thumbs down is stored as negative', async () => {
    const visit = await env.visit(env.embed('/shop'));
    const { page } = visit;
    const w = widget(page);
    const requests = await startChat(visit, 'What is your return policy?');
    await w.end.click();
    await w.rating.waitFor({ state: 'visible' });
    await expect.poll(async () => (await storedSession(requests))?.status).toBe('resolved');

    await w.id('svc-rate-negative').click();
    await expect.poll(async () => (await storedSession(requests))?.rating).toBe('negative');
  });
});
