import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditConsole, createOwner, OWNER } from '../support/console.js';
import { useE2E } from '../support/setup.js';

/**
 * The console's knowledge sources (issue 22) in Chromium against the real service and its workers: an owner adds a
 * help centre served on loopback, watches it sync to ready with its documents counted and its broken page listed
 * with why, uploads a file, and deletes a source after confirming.
 */
const env = useE2E({ workers: true });

const article = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav><a href="/help/">Help</a></nav><main><article><h1>${title}</h1>${text
    .split('\n')
    .map((p) => `<p>${p}</p>`)
    .join('')}</article></main><footer>Cookie settings · © Trail Shop</footer></body></html>`;

const PAGES: Record<string, string> = {
  '/help/': article('Help centre', 'Answers about delivery and returns.\n<a href="/help/delivery">Delivery</a> <a href="/help/returns">Returns</a> <a href="/help/broken-page">Gift cards</a>'),
  '/help/delivery': article(
    'Delivery',
    'Orders placed before noon leave the warehouse the same day.\nDelivery to Canada takes five to seven working days; tracking comes by email as soon as the parcel leaves.',
  ),
  '/help/returns': article('Returns', 'Return any unused item within sixty days for a full refund.\nPrint the prepaid label from your account and drop the parcel at any post office.'),
};

let site: Server;
let siteUrl: string;

beforeAll(async () => {
  await createOwner(env.service.store, env.service.widget.accountId);
  site = createServer((req, res) => {
    const page = PAGES[(req.url ?? '/').split('?')[0]!];
    if (req.url === '/help/broken-page') res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
    else if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/help/`;
});
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
});

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

describe("the console's knowledge sources", () => {
  it('adds a website that syncs to ready with its documents, lists its failed page, uploads a file and deletes a source', async () => {
    const kbId = env.service.widget.knowledgeBaseIds[0]!;
    const { page } = await env.visit(`${env.service.url}/console/#/knowledge/${kbId}`);
    await signIn(page);
    await page.getByRole('heading', { level: 2, name: 'Sources' }).waitFor();

    await page.getByLabel('Start URL or sitemap').fill(siteUrl);
    await page.getByLabel('At most this many pages').fill('20');
    await page.getByLabel('Sync again').selectOption('weekly');
    await page.getByRole('button', { name: 'Add website' }).click();

    const website = page.getByRole('listitem', { name: siteUrl });
    await expect.poll(() => website.locator('.badge').textContent()).toBe('ready');
    await expect.poll(() => website.innerText()).toMatch(/Website · [2-9] documents/);
    await website.getByText('1 page could not be read').click();
    await expect.poll(() => website.getByRole('list', { name: /could not be read/ }).innerText()).toMatch(/broken-page.*500/s);
    expect(await auditConsole(page), 'axe on the sources').toEqual([]);

    await page.getByLabel(/PDF, Word \(DOCX\)/).setInputFiles({
      name: 'opening-hours.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Opening hours\n\nThe Reykjavik store is open from 9 to 18 every day but Christmas.\n'),
    });
    await page.getByText('opening-hours.md: added (1 documents).').waitFor();
    const file = page.getByRole('listitem', { name: 'opening-hours.md' });
    await expect.poll(() => file.locator('.badge').textContent()).toBe('ready');

    // Sync again: queued, then ready once more.
    await website.getByRole('button', { name: `Sync ${siteUrl} now` }).click();
    await expect.poll(() => website.locator('.badge').textContent()).toBe('ready');

    page.once('dialog', (dialog) => void dialog.accept());
    await file.getByRole('button', { name: 'Delete opening-hours.md' }).click();
    await expect.poll(() => page.getByRole('listitem', { name: 'opening-hours.md' }).count()).toBe(0);
  });
});
