import { describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE } from '../test/fake-service.js';
import { byTestId, queryTestId, send, shadow, storedKeys, useFakeService, waitFor, reply } from '../test/harness.js';
import { testToken } from '../test/jwt.js';
import { bubble, chatbox, identify, reset, setIdentityTokenProvider } from './index.js';

const service = useFakeService();
const config = { apiKey: API_KEY, apiBase: BASE };
const warnings = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);
const warned = (spy: ReturnType<typeof warnings>): string => spy.mock.calls.map((call) => String(call[0])).join('\n');
const hosts = () => document.querySelectorAll('svc-chat-widget');
const cssVar = (name: string): string => shadow().querySelector<HTMLElement>('.root')!.style.getPropertyValue(name).trim();
const cssVars = (names: string[]): string[] => names.map(cssVar);
const LOOK = ['--svc-brand', '--svc-size', '--svc-icon-size', '--svc-bottom', '--svc-side'];
const createBody = () => service.requests.find((request) => request.method === 'POST' && request.url.endsWith('/conversations'))?.body as Record<string, unknown>;

describe('singleton (spec 4.9)', () => {
  it('returns the active instance from bubble() or chatbox(), until it is destroyed', () => {
    const spy = warnings();
    const first = bubble(config);
    expect(bubble(config)).toBe(first);
    expect(chatbox(config)).toBe(first);
    expect(hosts()).toHaveLength(1);
    expect(warned(spy)).toContain('already active');
    first.destroy();
    expect(hosts()).toHaveLength(0);
    const second = chatbox(config);
    expect(second).not.toBe(first);
    expect(hosts()).toHaveLength(1);
  });

  it('opens, closes and toggles a bubble; isOpen is read-only', () => {
    const instance = bubble(config);
    expect(instance.isOpen).toBe(false);
    expect(byTestId('svc-panel').hidden).toBe(true);
    instance.open();
    expect(instance.isOpen).toBe(true);
    expect(byTestId('svc-panel').hidden).toBe(false);
    instance.toggle();
    expect(instance.isOpen).toBe(false);
    instance.toggle();
    instance.close();
    expect(instance.isOpen).toBe(false);
    expect(() => {
      (instance as { isOpen: boolean }).isOpen = true;
    }).toThrow(TypeError);
  });

  it('fills its container, or the viewport without one', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const instance = chatbox({ ...config, container });
    expect(container.querySelector('svc-chat-widget')?.getAttribute('data-kind')).toBe('chatbox');
    expect(byTestId('svc-panel').hidden).toBe(false);
    instance.destroy();
    chatbox(config);
    expect(document.body.lastElementChild?.tagName).toBe('SVC-CHAT-WIDGET');
    expect(shadow().querySelector('.root')!.classList.contains('fullscreen')).toBe(true);
    container.remove();
  });
});

describe('bubble() config (spec 4.9)', () => {
  it('applies the defaults: bottom-right, #6366f1, 56 px, icon about 43%, 20 px offsets', () => {
    bubble(config);
    const root = shadow().querySelector<HTMLElement>('.root')!;
    expect(root.className).toContain('bottom-right');
    expect(cssVars(LOOK)).toEqual(['#6366f1', '56px', '24px', '20px', '20px']);
    // Text sits on a darker shade: white on #6366f1 is only 4.47:1.
    expect(cssVar('--svc-brand-strong')).not.toBe('#6366f1');
    expect(cssVar('--svc-on-brand')).toBe('#ffffff');
  });

  it('takes every property', () => {
    bubble({ ...config, position: 'bottom-left', bubbleColor: '#0F766E', bubbleSize: 64, bubbleIconSize: 30, offset: { bottom: 40, left: 12, right: 99 } });
    const root = shadow().querySelector<HTMLElement>('.root')!;
    expect(root.className).toContain('bottom-left');
    expect(cssVars(LOOK)).toEqual(['#0f766e', '64px', '30px', '40px', '12px']);
  });

  it('reports each bad value naming the property, ignores it, and never throws', () => {
    const spy = warnings();
    const instance = bubble({
      ...config,
      position: 'top-left' as never,
      bubbleColor: 'red',
      bubbleSize: -5,
      bubbleIcon: 42 as never,
      bubbleIconSize: Number.NaN,
      offset: { bottom: 'far' as never, top: 3 } as never,
      colour: '#fff',
    } as never);
    const text = warned(spy);
    for (const property of ['position', 'bubbleColor', 'bubbleSize', 'bubbleIcon', 'bubbleIconSize', 'bottom', 'top', 'colour']) {
      expect(text).toContain(`"${property}"`);
    }
    expect(cssVars(LOOK)).toEqual(['#6366f1', '56px', '24px', '20px', '20px']);
    instance.open();
  });

  it('accepts an inline SVG icon (sanitised) or an image URL', () => {
    bubble({ ...config, bubbleIcon: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path d="M1 1"/><script>alert(1)</script></svg>' });
    const launcher = byTestId('svc-launcher');
    expect(launcher.querySelector('path')).not.toBeNull();
    expect(launcher.innerHTML).not.toMatch(/script|onload/);
    reset();
    bubble({ ...config, bubbleIcon: 'https://cdn.example/icon.png' });
    expect(byTestId('svc-launcher').querySelector('img')!.getAttribute('src')).toBe('https://cdn.example/icon.png');
  });

  it('refuses a missing key and a server key with a warning and an inert instance', () => {
    const spy = warnings();
    const missing = bubble({ apiBase: BASE });
    expect(() => [missing.open(), missing.toggle(), missing.close(), missing.destroy()]).not.toThrow();
    expect(missing.isOpen).toBe(false);
    const secret = chatbox({ apiKey: 'sk_live_secret', apiBase: BASE });
    expect(() => secret.destroy()).not.toThrow();
    expect(hosts()).toHaveLength(0);
    expect(warned(spy)).toMatch(/no apiKey[\s\S]*server key/);
  });

  it('never throws into the page, whatever it is given', () => {
    warnings();
    expect(() => bubble(42 as never)).not.toThrow();
    expect(() => chatbox('x' as never)).not.toThrow();
    expect(() => identify(null as never)).not.toThrow();
    expect(() => setIdentityTokenProvider(5 as never)).not.toThrow();
    expect(() => reset()).not.toThrow();
  });
});

describe('identify() (spec 4.9)', () => {
  it('sends the valid details with the new session', async () => {
    identify({ visitorId: 'visitor_42.a:b@c-d', name: 'Ada', email: 'ada@example.com', phone: '+1 555 0100', company: 'Acme' });
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    expect(createBody()).toMatchObject({
      visitorId: 'visitor_42.a:b@c-d',
      visitorContext: { name: 'Ada', email: 'ada@example.com', phone: '+1 555 0100', company: 'Acme' },
    });
  });

  it('reports each invalid property by name and leaves it out', async () => {
    const spy = warnings();
    identify({
      identityToken: 'not-a-jwt',
      visitorId: 'has spaces',
      name: 'x'.repeat(101),
      email: 'not-an-email',
      phone: '1'.repeat(31),
      company: 'c'.repeat(101),
      latitude: 91,
      longitude: -181,
      favouriteColour: 'blue',
    } as never);
    const text = warned(spy);
    for (const property of ['identityToken', 'visitorId', 'name', 'email', 'phone', 'company', 'latitude', 'longitude', 'favouriteColour']) {
      expect(text).toContain(`"${property}"`);
    }
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    expect(createBody().visitorId).toMatch(/^v_[0-9a-f]{32}$/);
    expect(createBody().visitorContext).toBeUndefined();
  });

  it('accepts the limits exactly, and wants latitude with longitude', () => {
    const spy = warnings();
    identify({ name: 'x'.repeat(100), phone: '1'.repeat(30), company: 'c'.repeat(100), latitude: -90, longitude: 180, visitorId: 'v'.repeat(128) });
    expect(spy).not.toHaveBeenCalled();
    identify({ latitude: 45 });
    expect(warned(spy)).toContain('"latitude"');
  });

  it('is ignored with a warning once a widget exists; reset() first', async () => {
    const spy = warnings();
    bubble(config).open();
    identify({ visitorId: 'too-late-visitor' });
    expect(warned(spy)).toMatch(/identify\(\)[^\n]*reset\(\)/);
    send('Hi');
    await reply('Echo: Hi');
    expect(createBody().visitorId).not.toBe('too-late-visitor');
  });
});

describe('browser storage', () => {
  it('keeps a random unguessable visitorId and the sessionId, never the identity token', async () => {
    const token = testToken('user-1');
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    setIdentityTokenProvider(() => token);
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    const stored = storedKeys();
    expect(Object.keys(stored).sort()).toEqual([`svc-widget:session:${API_KEY}`, 'svc-widget:visitor']);
    expect(stored['svc-widget:visitor']).toMatch(/^v_[0-9a-f]{32}$/);
    expect(stored[`svc-widget:session:${API_KEY}`]).toBe(`${stored['svc-widget:visitor']} sess_1`);
    for (const [, value] of setItem.mock.calls) expect(value).not.toContain(token);
    for (const request of service.requests) {
      expect(request.url).not.toContain(token);
      expect(request.url).not.toContain(token.split('.')[1]);
    }
    expect(service.requests.filter((request) => request.headers['x-identity-token'] === token).length).toBeGreaterThan(0);
    setIdentityTokenProvider(null);
  });

  it('keeps working when storage throws', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('denied');
    });
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    send('Again');
    await reply('Echo: Again');
    expect(service.sessions.size).toBe(1);
  });

  it('reset() clears every widget key, removes the widget and forgets identify()', async () => {
    localStorage.setItem('svc-widget:session:pk_live_other', 'x y');
    localStorage.setItem('unrelated', 'kept');
    identify({ visitorId: 'first-visitor-id-123' });
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    reset();
    expect(storedKeys()).toEqual({});
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(hosts()).toHaveLength(0);
    bubble(config).open();
    send('Hello again');
    await reply('Echo: Hello again');
    const bodies = service.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/conversations')).map((r) => r.body as { visitorId: string });
    expect(bodies.map((body) => body.visitorId)).toEqual(['first-visitor-id-123', expect.stringMatching(/^v_/)]);
    expect(queryTestId('svc-message')).not.toBeNull();
  });
});

describe('destroy()', () => {
  it('removes the element and every listener it added, and stops its timers', () => {
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const instance = bubble(config);
    instance.open();
    instance.destroy();
    // Each listener is gone: removed, or added with a signal that is aborted now.
    const names = (calls: unknown[][]) => calls.map((call) => call[0]).sort();
    const kept = added.mock.calls.filter((call) => !(call[2] as AddEventListenerOptions | undefined)?.signal?.aborted);
    expect(names(removed.mock.calls)).toEqual(names(kept));
    expect(hosts()).toHaveLength(0);
    expect(instance.isOpen).toBe(false);
    expect(() => instance.destroy()).not.toThrow();
  });
});

it('waits for <body> when the script runs in <head>', async () => {
  const body = document.body;
  body.remove();
  const instance = bubble(config);
  expect(hosts()).toHaveLength(0);
  document.documentElement.append(body);
  document.dispatchEvent(new Event('DOMContentLoaded'));
  await waitFor(() => expect(hosts()).toHaveLength(1));
  instance.destroy();
});
