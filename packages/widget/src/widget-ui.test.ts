import { fireEvent } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE } from '../test/fake-service.js';
import { byTestId, messages, reply, send, shadow, useFakeService, waitFor } from '../test/harness.js';
import { contrastRatio } from './color.js';
import { bubble } from './index.js';

const service = useFakeService();
const config = { apiKey: API_KEY, apiBase: BASE };
const active = () => shadow().activeElement;

describe('keyboard and screen readers', () => {
  it('is a dialog named after the widget; the launcher says whether it is open', async () => {
    bubble(config);
    const launcher = byTestId('svc-launcher');
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(launcher.getAttribute('aria-label')).toBe('Open chat');
    fireEvent.click(launcher);
    expect(launcher.getAttribute('aria-expanded')).toBe('true');
    expect(launcher.getAttribute('aria-label')).toBe('Close chat');
    const panel = byTestId('svc-panel');
    expect(panel.getAttribute('role')).toBe('dialog');
    await waitFor(() => expect(panel.getAttribute('aria-label')).toBe('Outdoor Shop'));
  });

  it('moves focus into the panel on open, and back to the launcher when Escape closes it', () => {
    const instance = bubble(config);
    byTestId('svc-launcher').focus();
    fireEvent.click(byTestId('svc-launcher'));
    expect(active()).toBe(byTestId('svc-input'));
    fireEvent.keyDown(byTestId('svc-input'), { key: 'Escape' });
    expect(instance.isOpen).toBe(false);
    expect(byTestId('svc-panel').hidden).toBe(true);
    expect(active()).toBe(byTestId('svc-launcher'));
    fireEvent.click(byTestId('svc-launcher'));
    byTestId('svc-launcher').focus();
    fireEvent.keyDown(byTestId('svc-launcher'), { key: 'Escape' });
    expect(instance.isOpen).toBe(false);
  });

  it('returns focus to the launcher from the close button, but leaves it alone when closed from the page', () => {
    const instance = bubble(config);
    instance.open();
    fireEvent.click(byTestId('svc-close'));
    expect(active()).toBe(byTestId('svc-launcher'));
    instance.open();
    const outside = document.createElement('button');
    document.body.append(outside);
    outside.focus();
    instance.close();
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });

  it('sends on Enter; Shift+Enter and an IME composition do not send', async () => {
    bubble(config).open();
    const input = byTestId<HTMLTextAreaElement>('svc-input');
    input.value = 'line one';
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(input.value).toBe('line one');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(input.value).toBe('');
    await reply('Echo: line one');
    // Blank messages are not sent.
    send('   ');
    expect(messages()).toHaveLength(2);
  });

  it('shows what the visitor typed as text, not Markdown or HTML', async () => {
    bubble(config).open();
    send('**not bold** <b>x</b>');
    await reply('Echo');
    const mine = shadow().querySelector('[data-role="user"]')!;
    expect(mine.textContent).toBe('**not bold** <b>x</b>');
    expect(mine.querySelector('b, strong')).toBeNull();
  });
});

describe('language and theme', () => {
  it('speaks the widget language (French here)', async () => {
    service.state.config.language = 'fr';
    bubble(config).open();
    await waitFor(() => expect(byTestId('svc-input').getAttribute('placeholder')).toBe('Écrivez votre message…'));
    expect(byTestId('svc-launcher').getAttribute('aria-label')).toBe('Fermer la discussion');
  });

  it("uses the widget's theme when the page sets no colour or position, with AA contrast for text", async () => {
    service.state.config.theme = { primaryColor: '#22c55e', position: 'bottom-left' };
    bubble(config);
    const root = shadow().querySelector<HTMLElement>('.root')!;
    await waitFor(() => expect(root.style.getPropertyValue('--svc-brand').trim()).toBe('#22c55e'));
    expect(root.className).toContain('bottom-left');
    const strong = root.style.getPropertyValue('--svc-brand-strong').trim();
    expect(contrastRatio(strong, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(root.style.getPropertyValue('--svc-on-brand').trim(), '#22c55e')).toBeGreaterThanOrEqual(3);
  });

  it("lets the page's bubbleColor and position win over the theme", async () => {
    service.state.config.theme = { primaryColor: '#22c55e', position: 'bottom-left' };
    bubble({ ...config, bubbleColor: '#6366f1', position: 'bottom-right' });
    await waitFor(() => expect(service.requests.length).toBeGreaterThan(0));
    const root = shadow().querySelector<HTMLElement>('.root')!;
    expect(root.style.getPropertyValue('--svc-brand').trim()).toBe('#6366f1');
    expect(root.className).toContain('bottom-right');
  });

  it('shows the greeting and keeps its styles inside its shadow root, as constructed stylesheets (strict CSP)', async () => {
    bubble(config).open();
    await waitFor(() => expect(byTestId('svc-messages').textContent).toContain('Hello! How can I help?'));
    const css = shadow()
      .adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
      .join('\n');
    // The loader's sheet (host, launcher) and the panel's (messages…).
    expect(css).toContain(':host');
    expect(css).toContain('.messages');
    expect(shadow().querySelectorAll('style')).toHaveLength(0);
    expect(document.querySelectorAll('style')).toHaveLength(0);
  });

  it("shows the theme's title, subtitle and avatar, and says it is an AI", async () => {
    service.state.config.theme = { title: 'Trail help', subtitle: 'Replies in a minute', avatarUrl: 'https://cdn.example/ada.png' } as never;
    bubble(config).open();
    await waitFor(() => expect(shadow().querySelector('h2')!.textContent).toBe('Trail help'));
    expect(shadow().querySelector('.title p')!.textContent).toBe('Replies in a minute');
    expect(shadow().querySelector('[part~=avatar]')!.getAttribute('src')).toBe('https://cdn.example/ada.png');
    expect(byTestId('svc-ai').getAttribute('aria-label')).toBe('AI assistant');
    expect(byTestId('svc-panel').getAttribute('aria-label')).toBe('Trail help');
  });

  it('dark mode: "dark" always, "auto" with the system setting, live; "light" never', async () => {
    const root = () => shadow().querySelector('.root')!;
    service.state.config.theme = { darkMode: 'dark' } as never;
    let widget = bubble(config);
    await waitFor(() => expect(root().classList.contains('dark')).toBe(true));
    widget.destroy();

    let listener: (() => void) | null = null;
    let systemDark = true;
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          get matches() {
            return query.includes('dark') ? systemDark : false;
          },
          addEventListener: (_: string, fn: () => void) => void (listener = fn),
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    service.state.config.theme = { darkMode: 'auto' } as never;
    widget = bubble(config);
    await waitFor(() => expect(root().classList.contains('dark')).toBe(true));
    systemDark = false;
    listener!();
    expect(root().classList.contains('dark')).toBe(false);
    widget.destroy();

    service.state.config.theme = { darkMode: 'light' } as never;
    bubble(config);
    await waitFor(() => expect(service.requests.filter((r) => r.url.endsWith('/widget/config')).length).toBe(3));
    expect(root().classList.contains('dark')).toBe(false);
  });

  it('counts replies that arrive while the panel is closed on the launcher, until it opens', async () => {
    const widget = bubble(config);
    widget.open();
    send('Hi');
    widget.close();
    await waitFor(() => expect(byTestId('svc-unread').hidden).toBe(false));
    expect(byTestId('svc-unread').textContent).toBe('1');
    expect(byTestId('svc-launcher').getAttribute('aria-label')).toBe('Open chat (1)');
    widget.open();
    expect(byTestId('svc-unread').hidden).toBe(true);
    expect(byTestId('svc-launcher').getAttribute('aria-label')).toBe('Close chat');
  });

  it("takes the theme's launcher icon, unless the page chose one", async () => {
    service.state.config.theme = { launcherIcon: 'https://cdn.example/chat.png' } as never;
    const widget = bubble(config);
    await waitFor(() => expect(byTestId('svc-launcher').querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/chat.png'));
    widget.destroy();
    bubble({ ...config, bubbleIcon: 'https://cdn.example/page.png' });
    await waitFor(() => expect(service.requests.filter((r) => r.url.endsWith('/widget/config')).length).toBe(2));
    expect(byTestId('svc-launcher').querySelector('img')!.getAttribute('src')).toBe('https://cdn.example/page.png');
  });

  it('shows when each message was written, beside its bubble (the bubble holds only the message)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-01T09:05:00Z') });
    bubble(config).open();
    send('Hi');
    await reply('Echo: Hi');
    const times = [...shadow().querySelectorAll('[data-testid="svc-time"]')].map((element) => element.textContent);
    const expected = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(new Date('2026-03-01T09:05:00Z'));
    expect(times).toEqual([expected, expected]);
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi']);
  });
});
