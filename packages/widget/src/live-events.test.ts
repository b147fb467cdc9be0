import { describe, expect, it } from 'vitest';
import { API_KEY, BASE } from '../test/fake-service.js';
import { byTestId, messages, reply, send, shadow, useFakeService, waitFor } from '../test/harness.js';
import { bubble, chatbox } from './index.js';

/** DESIGN.md 6 and 7: operator messages and handoff changes reach the open widget through the session event stream. */
const service = useFakeService();
const config = { apiKey: API_KEY, apiBase: BASE };
const SARAH = { state: 'active' as const, since: new Date().toISOString(), operator: { id: 'op_1', name: 'Sarah' } };
const streams = () => service.requests.filter((request) => request.url.endsWith('/events'));
const operatorBubbles = () => [...shadow().querySelectorAll('[part~="message-operator"]')].map((element) => element.textContent);

/** An open bubble with a session, following its event stream. */
async function openConversation() {
  const widget = bubble(config);
  widget.open();
  send('I want to talk to a person');
  await reply('Echo: I want to talk to a person');
  await waitFor(() => expect(service.openStreams()).toBe(1));
  return widget;
}

describe('the session event stream', () => {
  it("shows a person's reply live, by name and marked as a person", async () => {
    await openConversation();
    service.setHandoff('sess_1', { state: 'requested', since: new Date().toISOString(), operator: null });
    service.setHandoff('sess_1', SARAH);

    service.operatorReply('sess_1', 'Sarah', 'Hi, Sarah here. How can I help?');
    await reply('Sarah here');
    expect(byTestId('svc-author').textContent).toBe('Sarah (person)');
    expect(operatorBubbles()).toEqual(['Sarah (person)Hi, Sarah here. How can I help?']);
    expect(byTestId('svc-live').textContent).toBe('Sarah: Hi, Sarah here. How can I help?');
    // The AI's replies carry no such label.
    expect(shadow().querySelectorAll('[data-testid="svc-author"]')).toHaveLength(1);

    service.setHandoff('sess_1', null);
  });

  it('resumes after a dropped connection from the last event seen: nothing missing, nothing twice', async () => {
    await openConversation();
    service.operatorReply('sess_1', 'Sarah', 'First');
    await reply('First');
    service.dropStreams();
    service.operatorReply('sess_1', 'Sarah', 'Second, while the connection was down');
    await reply('Second', 4000);
    expect(operatorBubbles()).toEqual(['Sarah (person)First', 'Sarah (person)Second, while the connection was down']);
    // The first connection asked for the session's whole log; the second for what followed the last event seen.
    const [first, resumed] = streams();
    expect(first!.headers['last-event-id']).toBe('0');
    expect(resumed!.headers['last-event-id']).toBe('1');
    expect(streams()).toHaveLength(2);
  });

  it('reconnects after a failing attempt, and gives up on a refusal that asking again cannot change', async () => {
    await openConversation();
    service.state.failNext.push({ status: 503, code: 'unavailable' });
    service.dropStreams();
    await waitFor(() => expect(service.openStreams()).toBe(1), { timeout: 5000 });
    expect(streams()).toHaveLength(3);
    service.operatorReply('sess_1', 'Sarah', 'Back');
    await reply('Back');

    service.state.failNext.push({ status: 404, code: 'session_not_found' });
    service.dropStreams();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(streams()).toHaveLength(4);
    expect(service.openStreams()).toBe(0);
  }, 15_000);

  it('stops listening when the panel closes; reopened, it shows what came meanwhile, once', async () => {
    const widget = await openConversation();
    service.operatorReply('sess_1', 'Sarah', 'Before closing');
    await reply('Before closing');
    widget.close();
    await waitFor(() => expect(service.openStreams()).toBe(0));
    service.operatorReply('sess_1', 'Sarah', 'While closed');
    widget.open();
    await reply('While closed');
    expect(operatorBubbles()).toEqual(['Sarah (person)Before closing', 'Sarah (person)While closed']);
    expect(streams().at(-1)!.headers['last-event-id']).toBe('1');
  });

  it("reads the session's whole log when it has no event to resume from, and a reload shows operator messages once", async () => {
    const widget = await openConversation();
    widget.close();
    await waitFor(() => expect(service.openStreams()).toBe(0));
    // Nothing was seen on the stream before it closed: the reopened one asks for the log from its start.
    service.setHandoff('sess_1', SARAH);
    service.operatorReply('sess_1', 'Sarah', 'Sent while the panel was closed');
    widget.open();
    await reply('Sent while the panel was closed');

    widget.destroy();
    bubble(config).open();
    await waitFor(() => expect(messages()).toHaveLength(3));
    await waitFor(() => expect(service.openStreams()).toBe(1));
    expect(operatorBubbles()).toEqual(['Sarah (person)Sent while the panel was closed']);
  });

  it('stops when the session ends, and follows a chatbox from the start', async () => {
    chatbox(config);
    send('Hello');
    await reply('Echo: Hello');
    await waitFor(() => expect(service.openStreams()).toBe(1));
    byTestId('svc-end').click();
    await waitFor(() => byTestId('svc-rating'));
    await waitFor(() => expect(service.openStreams()).toBe(0));
  });
});
