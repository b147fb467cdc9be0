import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE } from '../test/fake-service.js';
import { reply, send, storedKeys, useFakeService, waitFor } from '../test/harness.js';
import { testToken } from '../test/jwt.js';
import type { SvcApi } from './types.js';

// happy-dom cannot fetch a module from a URL: the panel comes from the source instead, the rest is widget.js's own.
vi.mock('./panel-import.js', () => ({ importPanel: () => import('./panel.js') }));

const service = useFakeService();

/** Loads widget.js's entry as a `<script>` with these attributes would. */
async function loadScript(attributes: Record<string, string>, src = `${BASE}/widget.js`): Promise<SvcApi> {
  const script = document.createElement('script');
  script.src = src;
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
  vi.resetModules();
  await import('./web.js');
  // The same (fresh) sdk module web.js just used: its panel arrives as the idle-time load brings it in a page.
  // (A second copy sets no panel source: it stays inert, as the first copy keeps the page.)
  await (await import('./sdk.js')).loadPanel().catch(() => undefined);
  return window.Svc!;
}

afterEach(() => {
  window.Svc?.reset();
  delete window.Svc;
});

describe('widget.js', () => {
  it('defines window.Svc with the five commands of spec 4.9 plus consent(), and no other global', async () => {
    const before = new Set(Object.getOwnPropertyNames(window));
    const Svc = await loadScript({ 'data-api-key': API_KEY });
    const added = Object.getOwnPropertyNames(window).filter((name) => !before.has(name));
    expect(added).toEqual(['Svc']);
    expect(Object.keys(Svc).sort()).toEqual(['bubble', 'chatbox', 'consent', 'identify', 'reset', 'setIdentityTokenProvider']);
    expect(document.querySelector('svc-chat-widget')).toBeNull(); // shows nothing until asked
  });

  it('takes the key from data-api-key and the API address from where it was loaded', async () => {
    const Svc = await loadScript({ 'data-api-key': API_KEY });
    Svc.bubble().open();
    send('Hi');
    await reply('Echo: Hi');
    expect(service.requests[0]!.url).toBe(`${BASE}/widget/config`);
    expect(service.requests[0]!.headers['x-api-key']).toBe(API_KEY);
  });

  it('uses data-api-base over the script location, and the folder of a mounted widget.js', async () => {
    const Svc = await loadScript({ 'data-api-key': API_KEY, 'data-api-base': `${BASE}/` }, 'https://cdn.example/svc/widget.js');
    Svc.chatbox();
    await waitFor(() => expect(service.requests[0]?.url).toBe(`${BASE}/widget/config`));
    window.Svc!.reset();
    delete window.Svc;
    service.server.use(http.get('https://chat.example/api/widget/config', () => HttpResponse.json({ data: service.state.config, meta: { creditsConsumed: 0 } })));
    const Mounted = await loadScript({ 'data-api-key': API_KEY }, 'https://chat.example/api/widget.js');
    Mounted.chatbox();
    await waitFor(() => expect(service.requests).toHaveLength(1));
  });

  it('fetches identity tokens from data-identity-endpoint on the page origin, with cookies', async () => {
    const token = testToken('user-7');
    const calls: Request[] = [];
    service.server.use(
      http.get(`${location.origin}/api/svc-token`, ({ request }) => {
        calls.push(request);
        return HttpResponse.json({ token });
      }),
    );
    const Svc = await loadScript({ 'data-api-key': API_KEY, 'data-identity-endpoint': '/api/svc-token' });
    Svc.bubble().open();
    send('Hi');
    await reply('Echo: Hi');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.credentials).toBe('include');
    expect(service.requests.find((request) => request.url.endsWith('/messages'))!.headers['x-identity-token']).toBe(token);
  });

  it('refuses an identity endpoint on another origin', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const Svc = await loadScript({ 'data-api-key': API_KEY, 'data-identity-endpoint': 'https://evil.example/token' });
    expect(warn.mock.calls.join('\n')).toContain('data-identity-endpoint');
    Svc.bubble().open();
    send('Hi');
    await reply('Echo: Hi');
    expect(service.requests.every((request) => request.headers['x-identity-token'] === undefined)).toBe(true);
  });

  it('keeps the first copy when loaded twice', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = await loadScript({ 'data-api-key': API_KEY });
    await loadScript({ 'data-api-key': 'pk_live_other' });
    expect(window.Svc).toBe(first);
    expect(warn.mock.calls.join('\n')).toContain('loaded twice');
  });

  it('data-consent="required": nothing in storage until the visitor opens the chat', async () => {
    const Svc = await loadScript({ 'data-api-key': API_KEY, 'data-consent': 'required' });
    const widget = Svc.bubble();
    await waitFor(() => expect(service.requests.length).toBeGreaterThan(0));
    expect(storedKeys()).toEqual({});
    widget.open();
    expect(Object.keys(storedKeys())).toEqual(['svc-widget:visitor']);
    send('Hi');
    await reply('Echo: Hi');
    expect(Object.keys(storedKeys()).sort()).toEqual([`svc-widget:session:${API_KEY}`, 'svc-widget:visitor']);
  });

  it('Svc.consent(true) lets it store before any open; consent(false) clears it and stops storing', async () => {
    const Svc = await loadScript({ 'data-api-key': API_KEY, 'data-consent': 'required' });
    Svc.chatbox();
    send('Hi');
    await reply('Echo: Hi');
    // A chatbox is open from the start: writing in it is the visitor's own step, which counts as consent.
    expect(Object.keys(storedKeys()).length).toBe(2);
    Svc.consent(false);
    expect(storedKeys()).toEqual({});
    Svc.reset();
    Svc.consent(true);
    Svc.bubble();
    await waitFor(() => expect(Object.keys(storedKeys())).toEqual(['svc-widget:visitor']));
  });
});
