import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from './App.js';
import { failure, http, HttpResponse, ME, ok, page, useService, admin as url } from './test-service.js';

const service = useService();

const conversation = (sessionId: string, extra: Record<string, unknown> = {}) => ({
  sessionId,
  widgetId: 'w1',
  visitorId: `visitor-${sessionId}`,
  status: 'active',
  messageCount: 2,
  rating: null,
  createdAt: '2026-11-24T08:00:00.000Z',
  resolvedAt: null,
  handoff: null,
  lastMessage: { role: 'user', content: `Hello from ${sessionId}`, createdAt: '2026-11-24T08:00:00.000Z' },
  ...extra,
});

beforeEach(() => {
  location.hash = '';
});

function signedIn(): void {
  service.use(
    http.get(url('/me'), () => ok(ME)),
    http.get(url('/widgets'), () => page([{ id: 'w1', name: 'Shop assistant', greeting: 'Hi', language: 'en', knowledgeBaseIds: [], theme: {}, forms: [] }])),
  );
}

describe('signing in', () => {
  it('asks for email and password, says why a sign-in failed, then opens the inbox and keeps the CSRF token for writes', async () => {
    let signedInNow = false;
    service.use(
      http.get(url('/me'), () => (signedInNow ? ok(ME) : failure(401, 'unauthorized', 'Sign in first.'))),
      http.post(url('/sessions'), async ({ request }) => {
        const body = (await request.json()) as { password: string };
        if (body.password !== 'correct horse battery') return failure(401, 'invalid_credentials', 'Wrong email or password.');
        signedInNow = true;
        return ok(ME);
      }),
      http.get(url('/conversations'), () => page([conversation('s1')])),
      http.get(url('/widgets'), () => page([])),
    );
    render(<App />);
    const email = await screen.findByLabelText('Email');
    fireEvent.input(email, { target: { value: 'ada@example.com' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'wrong password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Wrong email or password.');

    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeDefined();
    expect(await screen.findByText('Hello from s1')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Analytics' })).toBeDefined();
    const signIn = service.requests.find((request) => request.path === '/admin/v1/sessions')!;
    expect(signIn.body).toEqual({ email: 'ada@example.com', password: 'wrong password' });
    expect(localStorage.length).toBe(0);
  });

  it('shows an agent the conversations only', async () => {
    service.use(
      http.get(url('/me'), () => ok({ ...ME, operator: { ...ME.operator, role: 'agent' } })),
      http.get(url('/conversations'), () => page([])),
      http.get(url('/widgets'), () => failure(403, 'forbidden', 'Owners only.')),
    );
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'Conversations' });
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Conversations']);
  });
});

describe('the inbox', () => {
  it('filters by status, handoff, rating, widget and dates, and adds a conversation that arrives live', async () => {
    signedIn();
    service.use(
      http.get(url('/conversations'), () =>
        page([
          conversation('s1'),
          conversation('s0', { lastMessage: { role: 'assistant', content: '_Source: [Shipping](https://shop.example/shipping)_', createdAt: '2026-11-24T08:00:00.000Z' } }),
        ]),
      ),
    );
    render(<App />);
    await screen.findByText('Hello from s1');
    // A reply's preview is its text, without Markdown's markers or link targets.
    expect(screen.getByText('Source: Shipping')).toBeDefined();
    expect(['Connecting…', 'Live']).toContain(screen.getByRole('status').textContent);
    expect(screen.queryByText('Reconnecting…')).toBeNull();
    fireEvent.change(screen.getByLabelText('Handoff'), { target: { value: 'requested' } });
    fireEvent.change(screen.getByLabelText('Widget'), { target: { value: 'w1' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() =>
      expect(service.requests.at(-1)!.path).toBe(
        '/admin/v1/conversations?handoff=requested&widgetId=w1&from=2026-11-01T00%3A00%3A00.000Z&limit=50',
      ),
    );

    await waitFor(() => expect(service.connections.length).toBeGreaterThan(0));
    const feed = service.connections.at(-1)!;
    feed.send('7', 'session.updated', conversation('s2', { handoff: { state: 'requested', since: '2026-11-24T08:01:00.000Z', operator: null } }));
    const added = await screen.findByRole('link', { name: /visitor-s2/ });
    expect(within(added.closest('li')!).getByText('Wants a person')).toBeDefined();
    // One that does not match the filters (no handoff) stays out.
    feed.send('8', 'session.updated', conversation('s3'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: /visitor-s3/ })).toBeNull();
    expect(screen.getByText('Live')).toBeDefined();
  });
});

describe('a conversation', () => {
  it('shows the history with products, forms, credits and operator messages; takes over and replies with the CSRF token', async () => {
    signedIn();
    let state: 'requested' | 'active' = 'requested';
    const messages = [
      { messageId: 'm1', role: 'user', content: 'Any tents?', createdAt: '2026-11-24T08:00:00.000Z' },
      {
        messageId: 'm2',
        role: 'assistant',
        content: 'Here are two.',
        createdAt: '2026-11-24T08:00:05.000Z',
        products: [{ id: 'p1', name: 'Trail Tent 2P', price: 249, currency: 'EUR', url: 'https://shop.example/p1' }],
        forms: [{ formId: 'contact', title: 'Contact sales', questions: [{ id: 'email', label: 'Your email', kind: 'email', required: true }] }],
        credits: { chat: 1.5, retrieval: 0.5, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 },
      },
    ];
    service.use(
      http.get(url('/conversations/w1/s1'), () =>
        ok({ session: conversation('s1', { handoff: { state, since: '2026-11-24T08:01:00.000Z', operator: state === 'active' ? { id: 'op_1', name: 'Ada' } : null } }), messages }),
      ),
      http.post(url('/conversations/w1/s1/handoff/accept'), () => {
        state = 'active';
        return ok({});
      }),
      http.post(url('/conversations/w1/s1/messages'), async ({ request }) => {
        const { text } = (await request.json()) as { text: string };
        messages.push({ messageId: 'm3', role: 'assistant', content: text, createdAt: '2026-11-24T08:02:00.000Z', author: { type: 'operator', name: 'Ada' } } as never);
        return ok({});
      }),
    );
    location.hash = '#/conversations/w1/s1';
    render(<App />);
    await screen.findByText('Here are two.');
    expect(screen.getByText('Trail Tent 2P')).toBeDefined();
    expect(screen.getByText('Form shown: Contact sales')).toBeDefined();
    expect(screen.getByText('2 credits')).toBeDefined();
    expect(screen.getByText('Wants a person')).toBeDefined();
    expect(screen.queryByLabelText('Reply to the visitor')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Take over' }));
    const reply = await screen.findByLabelText('Reply to the visitor');
    fireEvent.input(reply, { target: { value: 'Hi, Ada here.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Ada (operator)')).toBeDefined();
    const sent = service.requests.find((request) => request.path === '/admin/v1/conversations/w1/s1/messages')!;
    expect(sent.body).toEqual({ text: 'Hi, Ada here.' });
    expect(sent.headers.get('X-CSRF-Token')).toBe(ME.csrfToken);
    expect(screen.getByRole('button', { name: 'Release to the assistant' })).toBeDefined();
  });
});

describe('an assistant message', () => {
  it('shows its Markdown as formatting and safe links, never a javascript: link; one credit is singular', async () => {
    signedIn();
    const content = [
      'Yes, we **ship** to _Canada_.',
      '',
      '- Standard: 5 days',
      '- Express: 2 days',
      '',
      '_Source: [Shipping and delivery](https://shop.example/shipping)_ and [click me](javascript:alert(1))',
    ].join('\n');
    service.use(
      http.get(url('/conversations/w1/s1'), () =>
        ok({
          session: conversation('s1'),
          messages: [
            { messageId: 'm1', role: 'user', content: 'Do you ship to **Canada**?', createdAt: '2026-11-24T08:00:00.000Z' },
            { messageId: 'm2', role: 'assistant', content, createdAt: '2026-11-24T08:00:05.000Z', credits: { chat: 1 } },
          ],
        }),
      ),
    );
    location.hash = '#/conversations/w1/s1';
    render(<App />);
    const strong = await screen.findByText('ship', { selector: 'strong' });
    const reply = strong.closest<HTMLElement>('.markdown')!;
    expect(within(reply).getByText('Canada', { selector: 'em' })).toBeDefined();
    expect(within(reply).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Standard: 5 days', 'Express: 2 days']);
    const source = within(reply).getByRole('link', { name: 'Shipping and delivery' });
    expect(source.getAttribute('href')).toBe('https://shop.example/shipping');
    expect(source.getAttribute('target')).toBe('_blank');
    expect(source.getAttribute('rel')).toBe('noopener noreferrer');
    expect(source.closest('em')).not.toBeNull();
    // The javascript: link is its label as text, not a link; no Markdown marker is left as text.
    expect(within(reply).queryByRole('link', { name: 'click me' })).toBeNull();
    expect(within(reply).getByText('click me')).toBeDefined();
    expect(reply.querySelector('[href^="javascript"]')).toBeNull();
    expect(reply.textContent).not.toMatch(/\*\*|_Source|\]\(/);
    // A visitor's text is theirs, shown as typed.
    expect(screen.getByText('Do you ship to **Canada**?')).toBeDefined();
    expect(screen.getByText('1 credit')).toBeDefined();
  });
});

describe('keys', () => {
  it('shows a new secret once, with a copy button, and revokes a key after confirmation', async () => {
    signedIn();
    const keys = [{ id: 'key_1', kind: 'server', prefix: 'sk_live_abcd', name: 'CI', scopes: ['conversations:chat'], createdAt: '2026-11-01T00:00:00.000Z', revokedAt: null as string | null }];
    service.use(
      http.get(url('/keys'), () => page(keys)),
      http.get(url('/webhooks'), () => page([])),
      http.post(url('/keys'), () => ok({ key: 'sk_live_the_secret_value', apiKey: { id: 'key_2' } }, 201)),
      http.delete(url('/keys/key_1'), () => {
        keys[0] = { ...keys[0]!, revokedAt: '2026-11-24T09:00:00.000Z' };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    location.hash = '#/keys';
    render(<App />);
    await screen.findByRole('button', { name: 'Revoke CI' });
    fireEvent.click(screen.getByRole('button', { name: 'Create server key' }));
    expect(await screen.findByText('sk_live_the_secret_value')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Copy server key' })).toBeDefined();
    expect(service.requests.find((request) => request.method === 'POST')!.body).toEqual({ scopes: ['conversations:chat'] });

    window.confirm = () => true;
    fireEvent.click(screen.getByRole('button', { name: 'Revoke CI' }));
    expect(await screen.findByText(/^Revoked/)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'I have copied the secrets' }));
    expect(screen.queryByText('sk_live_the_secret_value')).toBeNull();
  });
});
