import { serve, type ServerType } from '@hono/node-server';
import { Browser, type HTMLButtonElement, type HTMLInputElement, type HTMLTextAreaElement } from 'happy-dom';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { docsPageHtml } from './docs-page.js';
import { DOCS_SCRIPT } from './docs-script.js';
import { buildOpenApiDocument } from './document.js';

describe('docsPageHtml', () => {
  it('is self-contained: no external script, style, font or image', () => {
    const html = docsPageHtml('openapi.json');
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('embeds the spec URL so that no value can break out of its script element', () => {
    const html = docsPageHtml('</script><script>alert(1)</script>');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script>');
    expect(DOCS_SCRIPT).not.toMatch(/<\/script/i);
  });

  it('ships a script that parses', () => {
    expect(() => new Function(DOCS_SCRIPT)).not.toThrow();
  });
});

describe('the API reference page in a browser (happy-dom, real server)', () => {
  let harness: Harness;
  let server: ServerType;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    harness = await createHarness();
    // The wiring app.ts is to get: the document and the page beside the API.
    const app = new Hono();
    app.get('/openapi.json', (c) => c.json(buildOpenApiDocument()));
    app.get('/docs', (c) => c.html(docsPageHtml('openapi.json')));
    app.route('/', harness.runtime.app);
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = new Browser({ settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true } });
  });

  afterAll(async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function openDocs() {
    const page = browser.newPage();
    await page.goto(`${base}/docs`);
    const document = page.mainFrame.document;
    for (let i = 0; i < 100 && !document.body.getAttribute('data-ready'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(document.body.getAttribute('data-ready')).toBe('true');
    return { page, document };
  }

  it('renders every operation, grouped by tag, and every schema', async () => {
    const { document } = await openDocs();
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: object } };
    const operationIds = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    for (const id of operationIds) expect(document.getElementById(id), id).not.toBeNull();
    expect([...document.querySelectorAll('main > section > h2')].map((el) => el.textContent)).toEqual([
      'Sessions',
      'Messages',
      'Forms',
      'Knowledge bases',
      'Widget',
      'Operations',
      'admin',
      'Schemas',
    ]);
    expect(document.querySelectorAll('nav a[href^="#"]').length).toBe(operationIds.length + 1);
    for (const name of Object.keys(doc.components.schemas)) expect(document.getElementById(`schema-${name}`), name).not.toBeNull();
    const create = document.getElementById('createSession')!;
    expect(create.textContent).toContain('visitorId');
    expect(create.textContent).toContain('session_id_taken');
  });

  it('sends a request from the try-it form with the key typed into the page', async () => {
    const { page, document } = await openDocs();
    const window = page.mainFrame.window;
    const key = document.querySelector('.auth input[type=password]') as HTMLInputElement;
    key.value = harness.key;
    key.dispatchEvent(new window.Event('input'));
    const form = document.querySelector('#createSession form')!;
    (form.querySelector('input[name=widgetId]') as HTMLInputElement).value = harness.widget.id;
    const body = form.querySelector('textarea') as HTMLTextAreaElement;
    expect(JSON.parse(body.value)).toEqual({ visitorId: 'string' });
    body.value = JSON.stringify({ visitorId: 'docs-visitor' });
    (form.querySelector('button') as HTMLButtonElement).click();
    const output = form.querySelector('.output')!;
    for (let i = 0; i < 100 && !output.getAttribute('data-status'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(output.getAttribute('data-status')).toBe('201');
    expect(output.textContent).toContain('"visitorId": "docs-visitor"');
    expect(output.textContent).toMatch(/X-Request-Id: \S+/);
  });
});
