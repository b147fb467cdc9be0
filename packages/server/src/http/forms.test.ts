import { describe, expect, it } from 'vitest';
import { DEMO_FORMS, createLocalAgent, createScriptedAgent } from '@svc/agents';
import type { AgentRequest, FormDefinition } from '@svc/core';
import { createHarness, type Harness } from '../testing/harness.js';

const BOOKING: FormDefinition = {
  id: 'booking',
  title: 'Book a fitting',
  triggers: ['book a fitting'],
  questions: [
    { id: 'name', label: 'Name', kind: 'text', required: true },
    { id: 'when', label: 'When', kind: 'datetime', required: true },
    { id: 'size', label: 'Size', kind: 'select', required: false, options: ['S', 'M', 'L'] },
  ],
};

async function withForms(options: { agentRuns?: AgentRequest[] } = {}) {
  const runs = options.agentRuns ?? [];
  const local = { current: null as ReturnType<typeof createLocalAgent> | null };
  const h: Harness = await createHarness({
    agent: createScriptedAgent(async (req) => {
      runs.push(req);
      return local.current!.reply(req);
    }),
  });
  local.current = createLocalAgent({ knowledge: h.store });
  await h.admin.setWidgetForms(h.account.id, h.widget.id, [...DEMO_FORMS, BOOKING]);
  return { h, runs };
}

async function surface(h: Harness, trigger: string, body: Record<string, unknown> = { visitorId: 'v1' }) {
  const id = await h.session(body);
  const res = await h.post(`${h.base}/${id}/messages`, { content: trigger });
  expect(res.status).toBe(200);
  return { id, form: res.body.data.forms[0] };
}

describe('dynamic forms (spec 4.3)', () => {
  it('surfaces a form on its trigger, with the form id and question ids to answer', async () => {
    const { h } = await withForms();
    const { id, form } = await surface(h, 'Can I talk to sales please?');
    expect(form).toMatchObject({ formId: 'contact_sales', title: expect.any(String) });
    expect(form.questions.map((q: { id: string }) => q.id)).toEqual(['name', 'email', 'company', 'message']);
    expect((await h.store.getSession(h.widget.id, id))!.pendingFormId).toBe('contact_sales');
  });

  it('accepts valid answers: stored as a readable user item, answered and billed like a turn, form no longer pending', async () => {
    const { h, runs } = await withForms();
    const { id } = await surface(h, 'talk to sales');
    const before = (await h.store.getAccount(h.account.id))!.balance;
    const res = await h.post(`${h.base}/${id}/form-submissions`, {
      formId: 'contact_sales',
      answers: { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Engines Ltd' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ messageId: expect.stringMatching(/^msg_/), sessionEnded: false, content: expect.stringMatching(/received/i) });
    expect(res.body.data).not.toHaveProperty('forms');
    expect(res.body.meta.creditsConsumed).toBeGreaterThan(0);
    expect((await h.store.getAccount(h.account.id))!.balance).toBeCloseTo(before - res.body.meta.creditsConsumed, 6);
    expect(runs.at(-1)!.formSubmission).toEqual({ formId: 'contact_sales', title: 'Talk to sales' });

    const history = await h.get(`${h.base}/${id}/messages`);
    const userItem = history.body.data.at(-2);
    expect(userItem.role).toBe('user');
    expect(userItem.content).toContain('Ada Lovelace');
    expect(userItem.content).toContain('ada@example.com');
    expect((await h.store.getSession(h.widget.id, id))!.pendingFormId).toBeNull();

    const again = await h.post(`${h.base}/${id}/form-submissions`, { formId: 'contact_sales', answers: { name: 'A', email: 'a@b.co' } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('form_rejected');
  });

  it.each([
    ['no pending form', false, { formId: 'contact_sales', answers: { name: 'A', email: 'a@b.co' } }, 'formId'],
    ['wrong formId', true, { formId: 'booking', answers: { name: 'A' } }, 'formId'],
    ['missing required answer', true, { formId: 'contact_sales', answers: { email: 'a@b.co' } }, 'answers.name'],
    ['invalid email', true, { formId: 'contact_sales', answers: { name: 'A', email: 'not-an-email' } }, 'answers.email'],
    ['unknown question', true, { formId: 'contact_sales', answers: { name: 'A', email: 'a@b.co', fax: '1' } }, 'answers.fax'],
  ])('rejects %s with 400 form_rejected, before billing, agent or storage', async (_name, pending, body, field) => {
    const { h, runs } = await withForms();
    const id = pending ? (await surface(h, 'talk to sales')).id : await h.session();
    const runsBefore = runs.length;
    const balance = (await h.store.getAccount(h.account.id))!.balance;
    const count = (await h.store.getSession(h.widget.id, id))!.messageCount;
    const res = await h.post(`${h.base}/${id}/form-submissions`, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'form_rejected', field }, meta: { creditsConsumed: 0 } });
    expect(runs.length).toBe(runsBefore);
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(balance);
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(count);
  });

  it('reads a datetime answer in the turn timezone: request, else session, else widget', async () => {
    const { h } = await withForms();
    const answer = { formId: 'booking', answers: { name: 'Ada', when: '2026-07-01T10:00' } };
    const { id: paris } = await surface(h, 'book a fitting', { visitorId: 'p', timezone: 'Europe/Paris' });
    const fromSession = await h.post(`${h.base}/${paris}/form-submissions`, answer);
    expect(fromSession.status).toBe(200);
    const { id: other } = await surface(h, 'book a fitting', { visitorId: 'q', timezone: 'Europe/Paris' });
    await h.post(`${h.base}/${other}/form-submissions`, { ...answer, timezone: 'America/New_York' });
    const { id: widgetZone } = await surface(h, 'book a fitting', { visitorId: 'r' });
    await h.post(`${h.base}/${widgetZone}/form-submissions`, answer);
    const submitted = async (id: string) => (await h.get(`${h.base}/${id}/messages`)).body.data.at(-2).content as string;
    expect(await submitted(paris)).toContain('2026-07-01T08:00:00.000Z');
    expect(await submitted(other)).toContain('2026-07-01T14:00:00.000Z');
    expect(await submitted(widgetZone)).toContain('2026-07-01T10:00:00.000Z');
  });

  it('refuses identity on a submission from a key without identity:assert (403) and validates it with one (400)', async () => {
    const { h } = await withForms();
    const { id } = await surface(h, 'talk to sales');
    const body = { formId: 'contact_sales', answers: { name: 'A', email: 'a@b.co' } };
    expect((await h.post(`${h.base}/${id}/form-submissions`, { ...body, identity: { sub: 'u1' } })).status).toBe(403);
    const key = await h.newKey(['conversations:chat', 'identity:assert']);
    const bad = await h.post(`${h.base}/${id}/form-submissions`, { ...body, identity: { sub: '' } }, { key });
    expect(bad.body.error).toMatchObject({ code: 'invalid_identity', field: 'identity.sub' });
    expect((await h.post(`${h.base}/${id}/form-submissions`, { ...body, identity: { sub: 'u1' } }, { key })).status).toBe(200);
  });
});
