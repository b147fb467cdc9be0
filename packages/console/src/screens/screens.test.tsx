import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { LIFECYCLE_EVENTS, SCOPES as CORE_SCOPES } from '@svc/core/schemas';
import { describe, expect, it } from 'vitest';
import { BarChart, ColumnChart } from '../components/charts.js';
import { parsePreview } from '../preview/settings.js';
import { failure, http, ok, page, useService, admin as url } from '../test-service.js';
import { embedSnippet, parseOrigins } from './Embed.js';
import { jsonProblem } from './FormsEditor.js';
import { KnowledgeBaseScreen } from './Knowledge.js';
import { SCOPES, WEBHOOK_EVENTS } from './Keys.js';
import { WidgetEditor } from './WidgetEditor.js';
import { Analytics } from './Analytics.js';

const service = useService();

const WIDGET = { id: 'w1', name: 'Shop assistant', greeting: 'Hi there', language: 'en', knowledgeBaseIds: [], confidenceThreshold: 0.43, theme: {}, forms: [] };

describe('the widget editor', () => {
  function open(): void {
    service.use(
      http.get(url('/widgets/w1'), () => ok(WIDGET)),
      http.get(url('/knowledge-bases'), () => page([{ id: 'kb1', name: 'Catalogue', createdAt: '2026-11-01T00:00:00.000Z' }])),
    );
    render(<WidgetEditor widgetId="w1" />);
  }

  it('feeds the preview frame the theme as it is edited, and saves it without the fields left empty', async () => {
    open();
    service.use(http.put(url('/widgets/w1/theme'), async ({ request }) => ok({ ...WIDGET, theme: await request.json() })));
    const colour = await screen.findByRole('textbox', { name: /Brand colour/ });
    fireEvent.input(colour, { target: { value: '#0f766e' } });
    fireEvent.input(screen.getByLabelText(/^Title/), { target: { value: 'Ask us' } });
    fireEvent.change(screen.getByLabelText('Dark mode'), { target: { value: 'dark' } });
    const frame = screen.getByTitle('Live preview of the widget') as HTMLIFrameElement;
    await waitFor(() => expect(parsePreview(new URL(frame.src).hash)?.theme).toEqual({ primaryColor: '#0f766e', title: 'Ask us', darkMode: 'dark' }));
    expect(new URL(frame.src).pathname).toBe('/console/preview.html');
    expect(parsePreview(new URL(frame.src).hash)).toMatchObject({ widgetId: 'w1', name: 'Shop assistant', greeting: 'Hi there' });

    fireEvent.click(screen.getByRole('button', { name: 'Save theme' }));
    expect(await screen.findByText('Theme saved.')).toBeDefined();
    expect(service.requests.find((request) => request.method === 'PUT')!.body).toEqual({ primaryColor: '#0f766e', title: 'Ask us', darkMode: 'dark' });
  });

  it('saves how confident the assistant must be to answer, with the other settings', async () => {
    open();
    service.use(http.patch(url('/widgets/w1'), async ({ request }) => ok({ ...WIDGET, ...((await request.json()) as object) })));
    const threshold = (await screen.findByRole('spinbutton', { name: /Answer only when at least this confident/ })) as HTMLInputElement;
    expect(threshold.value).toBe('0.43');
    fireEvent.input(threshold, { target: { value: '0.6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeDefined();
    expect(service.requests.find((request) => request.method === 'PATCH')!.body).toEqual({ name: 'Shop assistant', greeting: 'Hi there', language: 'en', confidenceThreshold: 0.6 });
  });

  it('does not preview or save a colour that is not a hex colour, and says why', async () => {
    open();
    const colour = await screen.findByRole('textbox', { name: /Brand colour/ });
    fireEvent.input(colour, { target: { value: 'teal' } });
    expect(colour.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('A 6-digit hex colour such as #6366f1.').className).toBe('error');
    expect((screen.getByRole('button', { name: 'Save theme' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows where forms JSON is broken, then the service’s validation error naming the field', async () => {
    open();
    service.use(http.put(url('/widgets/w1/forms'), () => failure(400, 'validation_failed', 'forms.0.questions.0.kind: Invalid option', 'forms.0.questions.0.kind')));
    const editor = await screen.findByLabelText(/Form definitions/);
    fireEvent.input(editor, { target: { value: '[{"id": "contact",\n  "title": }]' } });
    expect(screen.getByRole('alert').textContent).toMatch(/^Not valid JSON.*"title": }/);
    expect((screen.getByRole('button', { name: 'Save forms' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.input(editor, { target: { value: '[{"id":"contact","title":"Contact","questions":[{"id":"q","label":"Q","kind":"colour","required":true}]}]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save forms' }));
    expect((await screen.findByRole('alert')).textContent).toBe('forms.0.questions.0.kind: Invalid option');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
  });

  it('attaches a knowledge base, and creates a public key for the origins given with the snippet to paste', async () => {
    open();
    service.use(
      http.patch(url('/widgets/w1'), async ({ request }) => ok({ ...WIDGET, ...((await request.json()) as object) })),
      http.post(url('/public-keys'), () => ok({ key: 'pk_live_abc123' }, 201)),
    );
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Catalogue' }));
    expect(await screen.findByText('Knowledge bases saved.')).toBeDefined();
    expect(service.requests.find((request) => request.method === 'PATCH')!.body).toEqual({ knowledgeBaseIds: ['kb1'] });

    const origins = screen.getByLabelText(/Sites allowed/);
    fireEvent.input(origins, { target: { value: 'https://shop.example.com/path' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create public key and snippet' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/is not an origin/);
    fireEvent.input(origins, { target: { value: 'https://shop.example.com\nhttp://localhost:8080' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create public key and snippet' }));
    const snippet = (await screen.findByLabelText(/Paste this/)) as HTMLTextAreaElement;
    expect(snippet.value).toBe('<script async src="http://console.test/widget.js" data-api-key="pk_live_abc123" onload="Svc.bubble()"></script>');
    expect(service.requests.find((request) => request.path === '/admin/v1/public-keys')!.body).toEqual({
      widgetId: 'w1',
      origins: ['https://shop.example.com', 'http://localhost:8080'],
    });
  });
});

describe('a knowledge base', () => {
  it('imports a JSON file, reporting the counts, and tries a search', async () => {
    service.use(
      http.get(url('/knowledge-bases/kb1'), () =>
        ok({
          id: 'kb1',
          name: 'Catalogue',
          createdAt: '2026-11-01T00:00:00.000Z',
          products: 1,
          documents: 0,
          embeddings: { model: 'openai:text-embedding-3-small:512', embedded: 30, passages: 120 },
        }),
      ),
      http.get(url('/knowledge-bases/kb1/products'), () => page([{ id: 'p1', name: 'Trail Tent', price: 100, currency: 'EUR' }])),
      http.get(url('/knowledge-bases/kb1/documents'), () => page([])),
      http.get(url('/knowledge-bases/kb1/sources'), () => ok([])),
      http.post(url('/knowledge-bases/kb1/import'), () => ok({ products: 12, documents: 1 })),
      http.post(url('/knowledge-bases/kb1/search'), () =>
        ok({
          passages: [{ documentId: 'd1', title: 'Shipping', url: null, content: 'We ship to Canada.', rank: 1, score: 2.5, confidence: 0.82, retrievers: ['text', 'vector'] }],
          products: [],
          confidence: 0.82,
        }),
      ),
    );
    render(<KnowledgeBaseScreen kbId="kb1" />);
    expect(await screen.findByText('Trail Tent')).toBeDefined();
    // The background embedding job's progress, as a progress bar with its figures.
    const progress = screen.getByRole('progressbar', { name: /Embeddings \(openai:text-embedding-3-small:512\): 30 of 120 passages/ }) as HTMLProgressElement;
    expect([progress.value, progress.max]).toEqual([30, 120]);
    const input = screen.getByLabelText(/A JSON file/) as HTMLInputElement;
    const file = new File([JSON.stringify({ products: [], documents: [] })], 'shop.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [file] });
    fireEvent.change(input);
    expect(await screen.findByText('Imported shop.json: 12 products, 1 documents.')).toBeDefined();
    expect(service.requests.find((request) => request.path.endsWith('/import'))!.body).toEqual({ products: [], documents: [] });

    fireEvent.input(screen.getByRole('searchbox'), { target: { value: 'ship to canada?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('We ship to Canada.', { exact: false })).toBeDefined();
    expect(screen.getByText(/confidence 0\.82 · found by text and vector/)).toBeDefined();
    expect(service.requests.find((request) => request.path.endsWith('/search'))!.body).toEqual({ query: 'ship to canada?' });
  });
});

describe("a knowledge base's sources", () => {
  const SOURCE = {
    id: 'src_1',
    knowledgeBaseId: 'kb1',
    type: 'website',
    url: 'https://help.shop.example/',
    fileName: null,
    include: [],
    exclude: [],
    maxPages: 500,
    schedule: 'off',
    status: 'syncing',
    progress: { found: 10, fetched: 4, unchanged: 0, failed: 1, skipped: 0 },
    documents: 4,
    lastSync: { startedAt: '2026-11-01T00:00:00.000Z', finishedAt: null, error: null },
    nextSyncAt: null,
    createdAt: '2026-11-01T00:00:00.000Z',
  };
  const FAILED = [{ url: 'https://help.shop.example/broken', status: 500, reason: 'the server answered 500' }];

  it('shows a syncing website with its progress bar until it is ready, then its failed pages; adds a website with the fields given', async () => {
    let reads = 0;
    service.use(
      http.get(url('/knowledge-bases/kb1'), () => ok({ id: 'kb1', name: 'Help', createdAt: '2026-11-01T00:00:00.000Z', products: 0, documents: 4 })),
      http.get(url('/knowledge-bases/kb1/products'), () => page([])),
      http.get(url('/knowledge-bases/kb1/documents'), () => page([])),
      http.get(url('/knowledge-bases/kb1/sources'), () => ok([SOURCE])),
      http.get(url('/knowledge-bases/kb1/sources/src_1'), () =>
        ok(
          ++reads < 2
            ? { ...SOURCE, failedPages: FAILED }
            : { ...SOURCE, status: 'ready', documents: 9, progress: { found: 10, fetched: 9, unchanged: 0, failed: 1, skipped: 0 }, failedPages: FAILED },
        ),
      ),
      http.post(url('/knowledge-bases/kb1/sources'), async ({ request }) => ok({ ...SOURCE, id: 'src_2', status: 'queued', ...((await request.json()) as object) }, 201)),
    );
    render(<KnowledgeBaseScreen kbId="kb1" />);
    const progress = (await screen.findByRole('progressbar', { name: /help\.shop\.example.*: 5 of 10 pages read/ })) as HTMLProgressElement;
    expect([progress.value, progress.max]).toEqual([5, 10]);
    const item = screen.getByRole('listitem', { name: 'https://help.shop.example/' });
    await waitFor(() => expect(within(item).getByText('ready')).toBeDefined(), { timeout: 3000 });
    expect(within(item).getByText('1 page could not be read')).toBeDefined();
    expect(within(item).getByText(/the server answered 500/).textContent).toContain('500');

    fireEvent.input(screen.getByLabelText('Start URL or sitemap'), { target: { value: 'https://docs.shop.example/guide/' } });
    fireEvent.input(screen.getByLabelText(/Never pages under/), { target: { value: 'https://docs.shop.example/guide/old/\n' } });
    fireEvent.input(screen.getByLabelText('At most this many pages'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Sync again'), { target: { value: 'daily' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add website' }));
    expect(await screen.findByText(/Added https:\/\/docs\.shop\.example\/guide\/: its first sync is queued\./)).toBeDefined();
    expect(service.requests.find((request) => request.method === 'POST' && request.path.endsWith('/sources'))!.body).toEqual({
      type: 'website',
      url: 'https://docs.shop.example/guide/',
      exclude: ['https://docs.shop.example/guide/old/'],
      maxPages: 50,
      schedule: 'daily',
    });
  });
});

describe('analytics', () => {
  it('asks for the chosen days (the last one included) and draws each answer as a chart', async () => {
    service.use(
      http.get(url('/widgets'), () => page([])),
      http.get(url('/analytics'), () =>
        ok({
          conversationsPerDay: [{ date: '2026-11-01', count: 2 }, { date: '2026-11-02', count: 3 }],
          resolutions: { agent: 1, ended: 2, operator: 1, expired: 0 },
          ratings: { positive: 2, negative: 1 },
          handoffRate: 0.25,
          creditsByBucket: [{ bucket: 'chat', credits: 7.5 }],
          totals: { conversations: 5, messages: 21, credits: 7.5 },
          turnsPerDay: [
            { date: '2026-11-01', turns: 4, answered: 3, unanswered: 1, handedOff: 0, feedbackUp: 1, feedbackDown: 1, resolutionRate: 0.5, unansweredRate: 0.25 },
            { date: '2026-11-02', turns: 0, answered: 0, unanswered: 0, handedOff: 0, feedbackUp: 0, feedbackDown: 0, resolutionRate: null, unansweredRate: null },
          ],
          turns: { turns: 4, answered: 3, unanswered: 1, handedOff: 0, feedbackUp: 1, feedbackDown: 1, resolutionRate: 0.5, unansweredRate: 0.25 },
        }),
      ),
    );
    render(<Analytics />);
    fireEvent.change(await screen.findByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-02' } });
    await waitFor(() => expect(service.requests.at(-1)!.path).toBe('/admin/v1/analytics?from=2026-11-01T00%3A00%3A00.000Z&to=2026-11-03T00%3A00%3A00.000Z'));
    expect(await screen.findByRole('img', { name: /^How conversations ended\. Assistant: 1 conversations; Visitor: 2 conversations; Operator: 1/ })).toBeDefined();
    expect(screen.getAllByText('25%')).toHaveLength(2);
    expect(screen.getByRole('img', { name: /^Conversations per day\. 5 conversations over 2 days/ })).toBeDefined();
    // DESIGN.md section 12: answered without a thumbs-down over every turn, and the unanswered share.
    expect(screen.getByText('Resolution rate').nextElementSibling!.textContent).toBe('50%');
    expect(screen.getByText('Unanswered').nextElementSibling!.textContent).toBe('25%');
    expect(screen.getByRole('img', { name: /^Unanswered questions per day\. 1 questions over 2 days/ })).toBeDefined();
  });
});

describe('charts', () => {
  it('say what they show in words and give their numbers as a table', () => {
    render(
      <>
        <BarChart title="Ratings" unit="ratings" rows={[{ label: 'positive', value: 3 }, { label: 'negative', value: 1 }]} />
        <ColumnChart title="Conversations per day" unit="conversations" rows={[{ label: '2026-11-23', value: 2 }, { label: '2026-11-24', value: 5 }]} />
      </>,
    );
    expect(screen.getByRole('img', { name: 'Ratings. positive: 3 ratings; negative: 1 ratings' })).toBeDefined();
    expect(
      screen.getByRole('img', { name: 'Conversations per day. 7 conversations over 2 days, from 2026-11-23 to 2026-11-24; most on 2026-11-24 (5).' }),
    ).toBeDefined();
    const table = screen.getByRole('table', { name: 'Ratings' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['Itemratings', 'positive3', 'negative1']);
  });
});

describe('helpers', () => {
  it('list the scopes and webhook events @svc/core accepts', () => {
    expect([...SCOPES]).toEqual([...CORE_SCOPES]);
    expect([...WEBHOOK_EVENTS]).toEqual([...LIFECYCLE_EVENTS]);
  });

  it('read origins and build the snippet; find where JSON breaks', () => {
    expect(parseOrigins('https://a.example, http://localhost:3000/')).toEqual({ origins: ['https://a.example', 'http://localhost:3000'], problem: null });
    expect(parseOrigins('ftp://a.example').problem).toMatch(/not an origin/);
    expect(parseOrigins('').problem).toBe('Name at least one origin.');
    expect(embedSnippet('https://chat.example', 'pk_live_x')).toContain('src="https://chat.example/widget.js" data-api-key="pk_live_x"');
    expect(jsonProblem('{"a": 1}')).toBeNull();
    expect(jsonProblem('{\n"a": }')).toMatch(/^Not valid JSON/);
  });
});
