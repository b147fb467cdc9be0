import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { audit } from '../support/axe.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';

const env = useE2E();

/**
 * Thumbs on a reply (DESIGN.md section 12) in Chromium: the built widget loads the feedback chunk beside its panel,
 * a visitor rates a reply up, then down with a reason and a comment, and the service stores each rating.
 */
describe.each([
  ['desktop', VIEWPORTS.desktop],
  ['phone', VIEWPORTS.phone],
] as const)('feedback on a reply (%s)', (_name, viewport) => {
  it('rates a reply up, then down with a reason and a comment, with the keyboard and the mouse; stored, axe clean', async () => {
    const { page, api } = await env.visit(env.embed('/help'), viewport);
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'How do I return an item?');
    await reply(page, 1);
    const answer = w.replies.nth(0);
    const up = answer.getByTestId('svc-feedback-up');
    const down = answer.getByTestId('svc-feedback-down');
    await expect.poll(() => up.getAttribute('aria-label')).toBe('Helpful');
    expect(await down.getAttribute('aria-label')).toBe('Not helpful');

    const stored = async () => {
      const sent = api.filter((request) => request.path.endsWith('/feedback'));
      const [, sessionId, messageId] = /\/conversations\/([^/]+)\/messages\/([^/]+)\/feedback$/.exec(sent.at(-1)?.path ?? '') ?? [];
      if (!sessionId || !messageId) return null;
      return (await env.service.store.getMessage(env.service.widget.id, sessionId, messageId))?.feedback ?? null;
    };

    // Up, with the keyboard.
    await up.focus();
    await page.keyboard.press('Enter');
    await expect.poll(stored).toMatchObject({ rating: 'up', reason: null, comment: null });
    expect(await up.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => answer.getByRole('status').innerText()).toBe('Thanks for your feedback!');

    // Down: recorded at once, then why.
    await down.click();
    await expect.poll(stored).toMatchObject({ rating: 'down', reason: null });
    expect([await up.getAttribute('aria-pressed'), await down.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
    await answer.getByRole('group', { name: 'What was wrong?' }).waitFor();
    await answer.getByTestId('svc-reason-incomplete').click();
    expect(await answer.getByTestId('svc-reason-incomplete').getAttribute('aria-pressed')).toBe('true');
    await answer.getByLabel('Comment (optional)').fill('It does not say how long a refund takes.');
    const opened = await audit(page);
    await answer.getByTestId('svc-feedback-send').click();
    await expect.poll(stored).toMatchObject({ rating: 'down', reason: 'incomplete', comment: 'It does not say how long a refund takes.' });
    await expect.poll(() => answer.getByRole('status').innerText()).toBe('Thanks for your feedback!');
    const sent = await audit(page);

    expect({ opened, sent }, [...opened, ...sent].join('\n')).toEqual({ opened: [], sent: [] });
    // The reply's text is still the reply: the thumbs are beside it, not in its words.
    expect(await answer.innerText()).toContain('return');
  });
});
