import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent.js';
import { manualClock } from '../clock.js';
import { defaultIds } from '../ids.js';
import { isSvcError } from '../errors.js';
import { agentReply, createEngineHarness } from '../testing/engine-harness.js';
import { makeApiKey, makeWebhook } from '../testing/fixtures.js';
import {
  acceptHandoff,
  findConversation,
  getConversation,
  lastAccountEventId,
  listConversations,
  readAccountEvents,
  releaseHandoff,
  replyAsOperator,
  resolveConversation,
  type ConversationPorts,
} from './conversations.js';

/** Hands off when the visitor says "person", else echoes; counts its runs. */
function handoffAgent(): Agent & { runs: number } {
  const agent = {
    runs: 0,
    async reply(request: { message: string }) {
      agent.runs++;
      return request.message.includes('person')
        ? agentReply('A person will answer you here shortly.', { handoff: true })
        : agentReply(`echo: ${request.message}`);
    },
  };
  return agent;
}

async function setup() {
  const clock = manualClock(new Date('2026-05-01T10:00:00.000Z'));
  const agent = handoffAgent();
  const h = await createEngineHarness({ agent, clock });
  const ports: ConversationPorts = { store: h.store, clock, ids: defaultIds };
  const sessionId = await h.session();
  const send = (content: string) => h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content });
  return { h, ports, agent, clock, sessionId, send };
}

const refusal = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (error) {
    if (isSvcError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('handoff to a person (DESIGN.md section 6)', () => {
  it('a request for a person sets the handoff, then the AI stays silent and bills nothing until released', async () => {
    const { h, ports, agent, sessionId, send } = await setup();
    await h.store.insertWebhook(makeWebhook({ accountId: h.accountId, events: ['session.handoff'] }));

    const asked = await send('I want a person');
    expect(asked.status).toBe(200);
    expect(asked.data).toMatchObject({ content: 'A person will answer you here shortly.' });
    const session = (await h.engine.getSession(h.principal, h.widget.id, sessionId)).data;
    expect(session.handoff).toEqual({ state: 'requested', since: '2026-05-01T10:00:00.000Z', operator: null });

    const balance = (await h.store.getAccount(h.accountId))!.balance;
    const silent = await send('Hello? Anyone there?');
    expect(silent).toEqual({ status: 202, data: { messageId: null, status: 'processing' }, creditsConsumed: 0 });
    expect(agent.runs).toBe(1);
    expect((await h.store.getAccount(h.accountId))!.balance).toBe(balance);

    const operator = { id: null, name: 'Dana' };
    expect((await acceptHandoff(ports, h.accountId, h.widget.id, sessionId, operator)).handoff).toMatchObject({ state: 'active', operator });
    const reply = await replyAsOperator(ports, h.accountId, h.widget.id, sessionId, operator, 'Hi, Dana here. How can I help?');
    expect(reply).toMatchObject({ role: 'assistant', content: 'Hi, Dana here. How can I help?', author: { type: 'operator', name: 'Dana' }, credits: null });
    expect((await send('My order is late')).status).toBe(202);

    const history = await h.engine.listMessages(h.principal, h.widget.id, sessionId, {});
    expect(history.data.map((item) => [item.role, item.content, item.author?.name ?? null])).toEqual([
      ['user', 'I want a person', null],
      ['assistant', 'A person will answer you here shortly.', null],
      ['user', 'Hello? Anyone there?', null],
      ['assistant', 'Hi, Dana here. How can I help?', 'Dana'],
      ['user', 'My order is late', null],
    ]);

    expect((await releaseHandoff(ports, h.accountId, h.widget.id, sessionId)).handoff).toBeNull();
    const answered = await send('Thanks');
    expect(answered).toMatchObject({ status: 200, data: { content: 'echo: Thanks' } });
    expect(agent.runs).toBe(2);

    // One session.handoff webhook per state change, with the state.
    const deliveries = await h.store.listDeliveries({ accountId: h.accountId, limit: 50 });
    const states = deliveries
      .filter((delivery) => delivery.event === 'session.handoff')
      .map((delivery) => JSON.parse(delivery.payload) as { state: string; data: { handoff: unknown } });
    // One each (the manual clock gives them one instant, so the listing's order is not theirs: the e2e test checks it).
    expect(states.map((body) => body.state).sort()).toEqual(['active', 'released', 'requested']);
    expect(states.find((body) => body.state === 'released')!.data.handoff).toBeNull();
  });

  it('delivers operator replies to the creating server key\'s callback URL as message.completed with the author', async () => {
    const clock = manualClock(new Date('2026-05-01T10:00:00.000Z'));
    const h = await createEngineHarness({ agent: handoffAgent(), clock });
    const key = makeApiKey({ accountId: h.accountId, callbackUrl: 'https://client.example.com/cb', callbackSecret: 'cbsec_1', replyFormat: 'text' });
    await h.store.insertApiKey(key);
    const principal = { ...h.principal, keyId: key.id, callbackUrl: key.callbackUrl, replyFormat: key.replyFormat };
    const { data } = await h.engine.createSession(principal, h.widget.id, { visitorId: 'v-cb' });
    const ports: ConversationPorts = { store: h.store, clock, ids: defaultIds, formatReply: (markdown) => markdown.replace(/\*\*/g, '') };

    const message = await replyAsOperator(ports, h.accountId, h.widget.id, data.sessionId, { id: 'op_1', name: 'Ana' }, 'Your parcel left **today**.');

    const [delivery] = await h.store.listDeliveries({ accountId: h.accountId, limit: 10 }).then((rows) => rows.filter((row) => row.event === 'message.completed'));
    expect(delivery).toMatchObject({ keyId: key.id, url: 'https://client.example.com/cb', messageId: message.messageId, status: 'pending' });
    expect(JSON.parse(delivery!.payload)).toMatchObject({
      event: 'message.completed',
      messageId: message.messageId,
      sessionId: data.sessionId,
      data: { content: 'Your parcel left today.', author: { type: 'operator', name: 'Ana' }, sessionEnded: false },
    });
    // Replying took the conversation over: the AI stays out of it.
    expect((await getConversation(ports, h.accountId, h.widget.id, data.sessionId)).session.handoff).toMatchObject({ state: 'active', operator: { id: 'op_1', name: 'Ana' } });
  });

  it('resolves with reason operator, ending the handoff; lists and finds conversations; refuses other accounts and ended sessions', async () => {
    const { h, ports, sessionId, send } = await setup();
    await send('a person please');
    const other = await h.session();

    const requested = await listConversations(ports, h.accountId, { handoff: 'requested' });
    expect(requested.items.map((item) => [item.sessionId, item.lastMessage?.content])).toEqual([[sessionId, 'A person will answer you here shortly.']]);
    expect((await listConversations(ports, h.accountId, { handoff: 'none' })).items.map((item) => item.sessionId)).toEqual([other]);
    const paged = await listConversations(ports, h.accountId, { limit: 1 });
    expect(paged.items).toHaveLength(1);
    expect((await listConversations(ports, h.accountId, { limit: 1, cursor: paged.nextCursor! })).items).toHaveLength(1);
    expect(await refusal(listConversations(ports, h.accountId, { cursor: 'garbage' }))).toBe('invalid_cursor');
    expect(await refusal(listConversations(ports, h.accountId, { handoff: 'maybe' as never }))).toBe('validation_failed');

    expect(await findConversation(ports, h.accountId, sessionId)).toEqual({ widgetId: h.widget.id, sessionId });
    expect(await refusal(findConversation(ports, 'acct_other', sessionId))).toBe('session_not_found');
    expect(await refusal(acceptHandoff(ports, 'acct_other', h.widget.id, sessionId, { id: null, name: 'X' }))).toBe('session_not_found');
    expect(await refusal(replyAsOperator(ports, h.accountId, h.widget.id, sessionId, { id: null, name: 'X' }, '  '))).toBe('validation_failed');

    const resolved = await resolveConversation(ports, h.accountId, h.widget.id, sessionId);
    expect(resolved).toMatchObject({ status: 'resolved', handoff: null });
    expect(await refusal(replyAsOperator(ports, h.accountId, h.widget.id, sessionId, { id: null, name: 'X' }, 'late'))).toBe('session_not_active');
    expect((await resolveConversation(ports, h.accountId, h.widget.id, sessionId)).resolvedAt).toBe(resolved.resolvedAt);
  });

  it('logs every change as account events, readable after an id with no gap or repeat', async () => {
    const { h, ports, sessionId, send } = await setup();
    const start = await lastAccountEventId(ports, h.accountId);
    await send('person!');
    await send('still there?');
    await acceptHandoff(ports, h.accountId, h.widget.id, sessionId, { id: null, name: 'Dana' });
    await replyAsOperator(ports, h.accountId, h.widget.id, sessionId, { id: null, name: 'Dana' }, 'Yes!');
    await releaseHandoff(ports, h.accountId, h.widget.id, sessionId);

    const all = await readAccountEvents(ports, h.accountId, start);
    expect(all.map((event) => [event.type, (event.data as { handoff?: { state: string } | null }).handoff?.state ?? event.data['content'] ?? null])).toEqual([
      ['session.updated', 'requested'],
      ['message.created', 'still there?'],
      ['session.updated', 'active'],
      ['message.created', 'Yes!'],
      ['session.updated', null],
    ]);
    const firstTwo = await readAccountEvents(ports, h.accountId, start, 2);
    const rest = await readAccountEvents(ports, h.accountId, firstTwo.at(-1)!.id);
    expect([...firstTwo, ...rest].map((event) => event.id)).toEqual(all.map((event) => event.id));

    // The visitor's own stream carries only what it did not send: the handoff changes and the operator's reply.
    const feed = await h.engine.openSessionEvents(h.principal, h.widget.id, sessionId, start ?? '0');
    const { events } = await feed.read(feed.after, 100);
    expect(events.map((event) => event.event)).toEqual(['session.updated', 'session.updated', 'message.created', 'session.updated']);
    expect(events[2]!.data).toMatchObject({ content: 'Yes!', author: { type: 'operator', name: 'Dana' } });
    expect(await refusal(h.engine.openSessionEvents(h.principal, h.widget.id, sessionId, 'abc'))).toBe('validation_failed');
  });

  it('keeps a week of events: the workers\' sweep deletes older ones', async () => {
    const { h, ports, clock, sessionId, send } = await setup();
    await send('a person please');
    expect((await readAccountEvents(ports, h.accountId, null)).length).toBeGreaterThan(0);
    clock.advance(8 * 24 * 3600 * 1000);
    const fresh = await h.session();
    await h.engine.expireIdleSessions();
    // The week-old events are gone; the new session's creation and the old one's expiry (written now) remain.
    const after = await readAccountEvents(ports, h.accountId, null);
    expect(after.map((event) => [event.sessionId, (event.data as { status: string }).status])).toEqual([
      [fresh, 'active'],
      [sessionId, 'expired'],
    ]);
  });
});
