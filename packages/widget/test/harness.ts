/**
 * Drives a mounted widget the way a visitor would, through its shadow root, against the fake service.
 */
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { reset } from '../src/index.js';
import { loadPanel } from '../src/sdk.js';
import { STORAGE_PREFIX } from '../src/storage.js';
import { createFakeService, type FakeService } from './fake-service.js';

/** Starts the fake service for the file and resets the SDK, storage and service between tests. */
export function useFakeService(): FakeService {
  const service = createFakeService();
  beforeAll(async () => {
    service.server.listen({ onUnhandledRequest: 'error' });
    // Loaded once up front, as the idle-time load does in a page: opening is then synchronous, so a test can type at once.
    await loadPanel();
  });
  afterEach(() => {
    reset();
    localStorage.clear();
    service.clear();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  afterAll(() => service.server.close());
  return service;
}

export function shadow(): ShadowRoot {
  const host = document.querySelector('svc-chat-widget');
  if (!host?.shadowRoot) throw new Error('no widget on the page');
  return host.shadowRoot;
}

export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = shadow().querySelector<T>(`[data-testid="${id}"]`);
  if (!element) throw new Error(`no [data-testid="${id}"] in the widget`);
  return element;
}

export const queryTestId = (id: string): HTMLElement | null => shadow().querySelector(`[data-testid="${id}"]`);

export const messages = (): { role: string | null; text: string }[] =>
  [...shadow().querySelectorAll('[data-testid="svc-message"]')].map((element) => ({
    role: element.getAttribute('data-role'),
    text: element.textContent ?? '',
  }));

/** Types a message and presses Enter, as a visitor does. */
export function send(text: string): void {
  const input = byTestId<HTMLTextAreaElement>('svc-input');
  input.value = text;
  fireEvent.keyDown(input, { key: 'Enter' });
}

/** Waits until the widget shows an assistant message with this text. */
export async function reply(text: string, timeout = 1000): Promise<void> {
  await waitFor(
    () => {
      if (!messages().some((message) => message.role === 'assistant' && message.text.includes(text))) {
        throw new Error(`no reply "${text}" yet; messages: ${JSON.stringify(messages())}`);
      }
    },
    { timeout },
  );
}

/** Every `svc-widget:` key in localStorage, with its value. */
export function storedKeys(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i)!;
    if (key.startsWith(STORAGE_PREFIX)) entries[key] = localStorage.getItem(key)!;
  }
  return entries;
}

export { waitFor };
