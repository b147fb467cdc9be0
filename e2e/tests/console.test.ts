import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { auditConsole, createOwner, cspViolations, OWNER, overflowsSideways } from '../support/console.js';
import { pixelDiff } from '../support/png.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';

/**
 * The operator console (`/console/`, issue 14) in Chromium against the real service: an owner signs in, builds a
 * widget and embeds it on a site of another origin, watches a visitor's conversation arrive, takes it over and
 * answers, and reads the analytics. Every screen is audited with axe-core, under the console's strict CSP.
 */
const env = useE2E();
const OPERATOR_REPLY = 'Hi, this is Ada from the shop. Yes, we ship to Canada.';
const docs = (name: string): string => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

beforeAll(async () => {
  await createOwner(env.service.store, env.service.widget.accountId);
});

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await auditConsole(page), `axe on ${screen}`).toEqual([]);
}

/**
 * Rewritten only when the picture changed (below 0.1% of its pixels is anti-aliasing, not a change). What differs
 * from run to run without the console changing is written over first: visitor ids (random), times and days (the
 * service's clock), so the picture changes only when the console does.
 */
async function screenshot(page: Page, file: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    const visitors = new Map<string, string>();
    // Days keep their distance from today, counted from 2026-03-02.
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    const shift = (day: string): string => new Date(Date.parse('2026-03-02') + Date.parse(day) - today).toISOString().slice(0, 10);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      node.textContent = node
        .textContent!.replace(/v_[0-9a-f]{32}/g, (id) => visitors.get(id) ?? (visitors.set(id, `visitor-${visitors.size + 1}`), visitors.get(id)!))
        .replace(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M/g, 'Mar 2, 2026, 10:42 AM')
        .replace(/\b\d{4}-\d{2}-\d{2}\b/g, shift);
    }
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type="date"]')) if (input.value) input.value = shift(input.value);
  });
  const picture = await page.screenshot({ animations: 'disabled', caret: 'hide', fullPage: false });
  const { width, height } = PNG.sync.read(picture);
  const unchanged = existsSync(docs(file)) && pixelDiff(readFileSync(docs(file)), picture).differing <= (width * height) / 1000;
  if (!unchanged) writeFileSync(docs(file), picture);
}

/** The preview frame's widget launcher colour, as the browser computed it. */
function launcherColour(frame: Frame): Promise<string> {
  return frame.getByTestId('svc-launcher').evaluate((element) => getComputedStyle(element).backgroundColor);
}

describe('the console', () => {
  it('signs an owner in (a wrong password is refused, the session is an HttpOnly cookie), with no CSP violation and no axe violation', async () => {
    const { page, context } = await env.visit('about:blank');
    const refused = cspViolations(page);
    await page.goto(`${env.service.url}/console/`);
    await page.getByLabel('Email').waitFor();
    await expectAccessible(page, 'sign-in');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or the password is wrong/i);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    const [cookie] = await context.cookies(env.service.url);
    expect(cookie).toMatchObject({ name: 'svc_console', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
    await expectAccessible(page, 'inbox');
    // A reload keeps the operator signed in (the cookie), and the CSRF token comes back from /me.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    expect(refused).toEqual([]);
  });

  it('creates a widget, whose live preview wears the theme as it is edited, and embeds it on another origin with a new public key', async () => {
    const { page } = await env.visit(`${env.service.url}/console/#/widgets`);
    const refused = cspViolations(page);
    await signIn(page);
    await page.getByRole('link', { name: 'Widgets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Widgets' }).waitFor();
    await expectAccessible(page, 'widgets');
    await page.getByLabel('Name').fill('Trail Helper');
    await page.getByRole('button', { name: 'Create widget' }).click();
    // The widget's identity secret is shown once, then the widget opens from the list.
    await expect.poll(() => page.locator('.secret-value').textContent()).toMatch(/^idsec_/);
    await page.getByRole('link', { name: 'set up Trail Helper' }).click();
    await page.getByRole('heading', { level: 1, name: 'Widget: Trail Helper' }).waitFor();

    // The real widget.js, from this server, in the preview frame: its launcher changes colour as the theme does.
    const frame = page.frameLocator('iframe[title="Live preview of the widget"]');
    await frame.getByTestId('svc-launcher').waitFor();
    const preview = page.frames().find((f) => f.url().includes('/console/preview.html'))!;
    await expect.poll(() => launcherColour(preview)).toBe('rgb(99, 102, 241)');
    await page.getByRole('textbox', { name: /Brand colour/ }).fill('#0f766e');
    await page.getByLabel(/^Title/).fill('Trail questions');
    await expect.poll(() => launcherColour(page.frames().find((f) => f.url().includes('/console/preview.html'))!)).toBe('rgb(15, 118, 110)');
    await expect.poll(() => frame.getByRole('heading', { name: 'Trail questions' }).count()).toBe(1);
    await expectAccessible(page, 'widget editor');
    await page.getByRole('button', { name: 'Save theme' }).click();
    await page.getByText('Theme saved.').waitFor();

    // A public key for the site's origin, and the snippet to paste.
    await page.getByLabel(/Sites allowed/).fill(env.site.origin);
    await page.getByRole('button', { name: 'Create public key and snippet' }).click();
    const snippet = await page.getByLabel(/Paste this/).inputValue();
    expect(snippet).toMatch(new RegExp(`^<script async src="${env.service.url}/widget.js" data-api-key="pk_live_[^"]+" onload="Svc.bubble\\(\\)"></script>$`));
    expect(refused).toEqual([]);

    // The site pastes it: the widget works there, with the saved theme.
    const shop = env.site.setPage('/trail-shop', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trail shop</title></head><body><h1>Trail shop</h1>${snippet}</body></html>`);
    const visitor = await env.visit(shop);
    await openBubble(visitor.page);
    await expect.poll(() => visitor.page.getByRole('heading', { name: 'Trail questions' }).count()).toBe(1);
    await sendMessage(visitor.page, 'Hello, do you ship to Canada?');
    expect((await reply(visitor.page, 1)).length).toBeGreaterThan(0);
  });

  it('lists a visitor’s conversation; the operator takes it over and replies, and the reply is stored as theirs', async () => {
    const visitor = await env.visit(env.embed('/takeover'));
    await openBubble(visitor.page);
    await sendMessage(visitor.page, 'Do you ship to Canada?');
    await reply(visitor.page, 1);
    await sendMessage(visitor.page, 'I want to talk to a human please');
    await reply(visitor.page, 2);

    const operator = await env.visit(`${env.service.url}/console/`);
    await signIn(operator.page);
    const waiting = operator.page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: 'Wants a person' });
    await expect.poll(() => waiting.count()).toBe(1);
    await expectAccessible(operator.page, 'inbox with a conversation');
    // The picture shows the live feed open, as an operator sees it once connected.
    await expect.poll(() => operator.page.getByText('Live', { exact: true }).count()).toBe(1);
    await screenshot(operator.page, 'console-inbox.png');

    await waiting.getByRole('link').click();
    await operator.page.getByRole('heading', { level: 1, name: /Conversation with/ }).waitFor();
    await operator.page.getByText('Do you ship to Canada?').waitFor();
    await operator.page.getByRole('button', { name: 'Take over' }).click();
    await operator.page.getByLabel('Reply to the visitor').fill(OPERATOR_REPLY);
    await operator.page.getByRole('button', { name: 'Send reply' }).click();
    await operator.page.getByText('Ada (operator)').waitFor();
    await expectAccessible(operator.page, 'conversation');
    await screenshot(operator.page, 'console-conversation.png');
    // Stored as the operator's: the admin API answers the conversation with the reply and its author.
    const stored = await operator.page.evaluate(async () => {
      const [, widgetId, sessionId] = location.hash.replace('#/', '').split('/');
      const response = await fetch(`/admin/v1/conversations/${widgetId}/${sessionId}`);
      return ((await response.json()) as { data: { messages: { content: string; author?: unknown }[] } }).data.messages.at(-1);
    });
    expect(stored).toMatchObject({ content: OPERATOR_REPLY, author: { type: 'operator', name: 'Ada' } });

    await operator.page.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => operator.page.locator('.facts').textContent()).toContain('resolved');
  });

  it('shows a conversation arriving live, without a reload (the account event stream)', async () => {
    const operator = await env.visit(`${env.service.url}/console/`);
    await signIn(operator.page);
    const inbox = operator.page.getByRole('list', { name: 'Conversations' });
    await expect.poll(() => operator.page.getByText('Live', { exact: true }).count()).toBe(1);
    const before = await inbox.getByRole('listitem').count();

    const visitor = await env.visit(env.embed('/live'));
    await openBubble(visitor.page);
    await sendMessage(visitor.page, 'Do you ship to Canada?');
    await reply(visitor.page, 1);
    await expect.poll(() => inbox.getByRole('listitem').count()).toBe(before + 1);
    await sendMessage(visitor.page, 'I want to talk to a human please');
    await expect.poll(() => inbox.getByRole('listitem').filter({ hasText: 'Wants a person' }).count()).toBe(1);
  });

  it('shows the operator’s reply in the visitor’s open widget, live', async () => {
    const visitor = await env.visit(env.embed('/reply'));
    await openBubble(visitor.page);
    await sendMessage(visitor.page, 'I want to talk to a human please');
    await reply(visitor.page, 1);

    const operator = await env.visit(`${env.service.url}/console/`);
    await signIn(operator.page);
    const waiting = operator.page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: 'Wants a person' });
    await waiting.first().getByRole('link').click();
    await operator.page.getByRole('button', { name: 'Take over' }).click();
    await operator.page.getByLabel('Reply to the visitor').fill(OPERATOR_REPLY);
    await operator.page.getByRole('button', { name: 'Send reply' }).click();
    await operator.page.getByText('Ada (operator)').waitFor();
    await expect.poll(() => widget(visitor.page).replies.filter({ hasText: OPERATOR_REPLY }).count()).toBe(1);
  });

  it('shows the analytics of those conversations as charts with text alternatives', async () => {
    const { page } = await env.visit(`${env.service.url}/console/#/analytics`);
    await signIn(page);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage and analytics' }).waitFor();
    const conversations = page.locator('.totals div', { hasText: 'Conversations' }).locator('dd');
    await expect.poll(async () => Number((await conversations.textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.getByRole('img', { name: /^Conversations per day\. \d+ conversations/ }).count()).toBe(1);
    await expect.poll(() => page.getByRole('img', { name: /^How conversations ended\. Assistant: \d+ conversations; Visitor: \d+ conversations; Operator/ }).count()).toBe(1);
    // Each chart's numbers are a table too, behind a disclosure a keyboard opens.
    await page.getByText('Conversations per day: as a table').click();
    await expect.poll(() => page.getByRole('table', { name: 'Conversations per day' }).getByRole('row').count()).toBeGreaterThan(1);
    await expectAccessible(page, 'analytics with a table open');
    await page.getByText('Conversations per day: as a table').click();
    await expectAccessible(page, 'analytics');
    await screenshot(page, 'console-analytics.png');
  });

  it('counts the conversation an operator took over and resolved in the handoff rate and the operator resolutions', async () => {
    const { page } = await env.visit(`${env.service.url}/console/#/analytics`);
    await signIn(page);
    await page.getByRole('heading', { level: 1, name: 'Usage and analytics' }).waitFor();
    await expect.poll(() => page.getByRole('img', { name: /^How conversations ended\..*Operator: [1-9]\d* conversations/ }).count()).toBe(1);
    await expect.poll(() => page.locator('figcaption', { hasText: 'Handed to a person' }).textContent()).not.toMatch(/: 0%$/);
  });

  it('imports a knowledge base from a JSON file and searches it; shows new secrets once and revokes a key', async () => {
    const { page } = await env.visit(`${env.service.url}/console/#/knowledge`);
    await signIn(page);
    await page.getByLabel('Name').fill('Trail catalogue');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { level: 1, name: 'Knowledge base: Trail catalogue' }).waitFor();
    const file = {
      products: [{ id: 'ridge-3', name: 'Ridge 3 Tent', price: 329, currency: 'USD', description: 'Roomy for three.' }],
      documents: [{ title: 'Returns', content: 'Return any item within 60 days for a full refund.' }],
    };
    await page.getByLabel(/A JSON file/).setInputFiles({ name: 'trail.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByText(/^Imported trail\.json: 1 products, 1 documents\.$/).waitFor();
    await page.getByRole('cell', { name: 'Ridge 3 Tent' }).waitFor();
    await page.getByRole('searchbox').fill('How many days to return an item?');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Return any item within 60 days', { exact: false }).waitFor();
    await expectAccessible(page, 'knowledge base');

    await page.getByRole('link', { name: 'Keys & webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys and webhooks' }).waitFor();
    await page.getByLabel('Name (optional)').fill('Shop backend');
    await page.getByRole('button', { name: 'Create server key' }).click();
    await expect.poll(() => page.locator('.secret-value').first().textContent()).toMatch(/^sk_live_/);
    await page.getByLabel('Webhook URL').fill('https://hooks.shop.example/svc');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => page.locator('.secret-value').count()).toBe(2);
    await expectAccessible(page, 'keys with secrets shown');
    // Listed without their secrets; gone from the page once acknowledged.
    const listed = await page.locator('table').innerText();
    const secret = (await page.locator('.secret-value').first().textContent())!;
    expect(listed).not.toContain(secret);
    await page.getByRole('button', { name: 'I have copied the secrets' }).click();
    expect(await page.getByText(secret).count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    const row = page.getByRole('row', { name: /Shop backend/ });
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await expect.poll(() => row.innerText()).toMatch(/Revoked/);
  });

  it('works on a 390×844 phone: no screen scrolls sideways, the navigation is reachable by keyboard', async () => {
    const { page } = await env.visit(`${env.service.url}/console/`, VIEWPORTS.phone);
    await signIn(page);
    for (const path of ['conversations', 'widgets', 'knowledge', 'keys', 'analytics']) {
      await page.goto(`${env.service.url}/console/#/${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await overflowsSideways(page), path).toBe(false);
      await expectAccessible(page, `${path} on a phone`);
    }
    // Keyboard only: a screen opens with its heading focused; back from there are the navigation and the skip link.
    const focused = (): Promise<string | undefined> => page.evaluate(() => document.activeElement?.textContent?.trim());
    expect(await focused()).toBe('Usage and analytics');
    for (let i = 0; i < 10 && (await focused()) !== 'Widgets'; i++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Widgets');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Widgets' }).waitFor();
    expect(await focused()).toBe('Widgets');
    for (let i = 0; i < 10 && (await focused()) !== 'Skip to content'; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });
});
