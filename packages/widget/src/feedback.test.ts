import { describe, expect, it } from 'vitest';
import { show, type FeedbackBody } from './feedback.js';

/** A message bubble as the panel draws it, in a shadow root whose panel says its language. */
function bubble(part = 'message message-assistant', lang = 'en'): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  const panel = document.createElement('section');
  panel.lang = lang;
  host.attachShadow({ mode: 'open' }).append(panel);
  const drawn = document.createElement('div');
  drawn.setAttribute('part', part);
  drawn.textContent = 'Returns are free within 30 days.';
  panel.append(drawn);
  return drawn;
}

function recorder(fail = false) {
  const sent: Array<[string, string, FeedbackBody]> = [];
  const post = async (session: string, path: string, request: { body: FeedbackBody }) => {
    sent.push([session, path, request.body]);
    if (fail) throw new Error('offline');
  };
  return { sent, post };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const $ = <T extends Element>(root: Element, selector: string) => root.querySelector<T>(selector)!;

describe('the feedback chunk (DESIGN.md section 12)', () => {
  it('rates a reply up, then down with a reason and a comment, each sent at once to the reply', async () => {
    const reply = bubble();
    const { sent, post } = recorder();
    show(reply, 'msg_1', post, 'sess_1');
    show(reply, 'msg_1', post, 'sess_1'); // drawn again: still one set of thumbs
    expect(reply.querySelectorAll('[data-testid=svc-feedback]')).toHaveLength(1);
    const up = $<HTMLButtonElement>(reply, '[data-testid=svc-feedback-up]');
    const down = $<HTMLButtonElement>(reply, '[data-testid=svc-feedback-down]');
    expect([up.getAttribute('aria-label'), up.getAttribute('aria-pressed'), down.getAttribute('aria-label')]).toEqual(['Helpful', 'false', 'Not helpful']);

    up.click();
    await settle();
    expect(sent).toEqual([['sess_1', '/messages/msg_1/feedback', { rating: 'up' }]]);
    expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).toEqual(['true', 'false']);
    expect($(reply, '[role=status]').textContent).toBe('Thanks for your feedback!');

    down.click();
    await settle();
    expect(sent[1]).toEqual(['sess_1', '/messages/msg_1/feedback', { rating: 'down' }]);
    expect($(reply, '[role=group]').getAttribute('aria-label')).toBe('What was wrong?');
    const chip = $<HTMLButtonElement>(reply, '[data-testid=svc-reason-incomplete]');
    chip.click();
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    $<HTMLTextAreaElement>(reply, 'textarea').value = '  How long does a refund take?  ';
    $<HTMLButtonElement>(reply, '[data-testid=svc-feedback-send]').click();
    await settle();
    expect(sent[2]).toEqual(['sess_1', '/messages/msg_1/feedback', { rating: 'down', reason: 'incomplete', comment: 'How long does a refund take?' }]);
    expect(reply.querySelector('form')).toBeNull();
    expect($(reply, '[role=status]').textContent).toBe('Thanks for your feedback!');
  });

  it('speaks the panel language, and unpresses a rating that could not be sent', async () => {
    const reply = bubble('message message-assistant', 'fr-CA');
    const { post } = recorder(true);
    show(reply, 'msg_2', post, 'sess_1');
    const up = $<HTMLButtonElement>(reply, '[data-testid=svc-feedback-up]');
    expect(up.getAttribute('aria-label')).toBe('Utile');
    up.click();
    await settle();
    expect(up.getAttribute('aria-pressed')).toBe('false');
  });

  it('leaves alone what cannot be rated: a reply not stored yet, a person’s reply, a visitor message', () => {
    const { post } = recorder();
    for (const [drawn, id] of [
      [bubble(), null],
      [bubble('message message-operator'), 'msg_3'],
      [bubble('message message-user'), 'msg_4'],
      [null, 'msg_5'],
    ] as const) {
      show(drawn, id, post, 'sess_1');
      expect(drawn?.querySelector('[data-testid=svc-feedback]') ?? null).toBeNull();
    }
  });
});
