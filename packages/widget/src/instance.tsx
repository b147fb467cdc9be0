import { render } from 'preact';
import { createApi } from './api.js';
import type { WidgetConfig } from './api-types.js';
import { initialChatState } from './chat-state.js';
import type { Appearance } from './config-validation.js';
import { createConversation } from './conversation.js';
import type { VisitorDetails } from './identify-validation.js';
import { stringsFor, CLOSE, OPEN } from './i18n.js';
import { endpointProvider } from './identity-endpoint.js';
import { createIdentityTokens } from './identity-tokens.js';
import type { TokenClaims } from './jwt.js';
import { App } from './components/App.js';
import { randomId } from './random-id.js';
import { VISITOR_ID } from './visitor-id.js';
import { holdWrites, loadVisitorId, saveVisitorId } from './storage.js';
import type { Shell } from './shell.js';
import { createStore } from './store.js';
import css from './styles.css?inline';
import type { BubbleInstance, IdentityTokenProvider } from './types.js';

export interface InstanceOptions {
  kind: 'bubble' | 'chatbox';
  apiKey: string;
  apiBase: string;
  /** The bubble's look; null for a chatbox. */
  appearance: Appearance | null;
  /** A chatbox's container; null: the bubble, or a chatbox covering the viewport. */
  container: HTMLElement | null;
  details: VisitorDetails;
  /** The provider registered with `setIdentityTokenProvider()`, read at each refresh. */
  provider(): IdentityTokenProvider | null;
  /** `data-identity-endpoint` (same origin, absolute). */
  identityEndpoint: string | undefined;
  /** Storage may be written now (else only once the visitor opens the chat or the site grants consent). */
  consent: boolean;
  /** Called on automatic sign-out, so the SDK drops the previous visitor's `identify()` payload. */
  forgetIdentity(): void;
  onDestroyed(): void;
}

/** Both kinds answer the bubble's members; on a chatbox open/close/toggle do nothing and `isOpen` is true. */
export interface WidgetInstance extends BubbleInstance {
  tokenSourceChanged(): void;
}

/**
 * Everything one widget on the page owns past the launcher, and the one place that releases it all on `destroy()`.
 * The loader made `shell` (host, shadow root, launcher) and started reading `config`.
 */
export function createInstance(
  options: InstanceOptions & { shell: Shell; config: Promise<WidgetConfig>; readClaims(token: string): TokenClaims | null },
): WidgetInstance {
  const { shell, readClaims } = options;
  const bubble = options.kind === 'bubble';
  const abort = new AbortController();
  const store = createStore(initialChatState(!bubble));
  holdWrites(!options.consent);
  const stored = loadVisitorId();
  const visitorId = options.details.visitorId ?? (stored && VISITOR_ID.test(stored) ? stored : randomId('v_'));
  saveVisitorId(visitorId);

  const endpoint = options.identityEndpoint ? endpointProvider(options.identityEndpoint) : null;
  /**
   * Where the token comes from, most specific first: a registered provider, the script tag's endpoint, then a
   * token given to `identify()` (used until its `exp`, after which the visitor counts as signed out).
   */
  const tokenSource = (): IdentityTokenProvider | null => {
    // The conversation's details: the `identify()` payload, until an automatic sign-out forgets it.
    const token = conversation.details.identityToken;
    const exp = token ? (readClaims(token)?.exp ?? null) : null;
    return options.provider() ?? endpoint ?? (token ? () => (exp === null || exp * 1000 > Date.now() ? token : null) : null);
  };
  const tokens = createIdentityTokens({
    source: tokenSource,
    onIdentityChange: () => conversation.newVisitor(),
    readClaims,
  });
  const api = createApi({ base: options.apiBase, apiKey: options.apiKey, token: () => tokens.current(), signal: abort.signal });
  const conversation = createConversation({
    api,
    apiKey: options.apiKey,
    store,
    visitorId,
    details: options.details,
    tokens,
    signal: abort.signal,
    forgetIdentity: options.forgetIdentity,
    prefetchedConfig: options.config,
  });

  let destroyed = false;
  const part = (name: string): HTMLElement | null => shell.shadow.querySelector<HTMLElement>(`[part~=${name}]`);
  let shown = false;

  /** The panel covers the whole screen (a phone): the page behind must not scroll, the keyboard must not hide it. */
  const fullScreen = (): boolean => bubble && matchMedia('(max-width: 480px)').matches;
  // The root's overflow governs the viewport's: hidden there, the page cannot scroll (the page's value comes back after).
  let locked: string | null = null;
  const lockPage = (lock: boolean): void => {
    const html = document.documentElement.style;
    if (lock && locked === null && fullScreen()) {
      locked = html.overflow;
      html.overflow = 'hidden';
    } else if (!lock && locked !== null) {
      html.overflow = locked;
      locked = null;
    }
  };
  // With the on-screen keyboard up, the visual viewport is what is left of the screen: the panel fits into it.
  const followViewport = (): void => {
    const viewport = window.visualViewport;
    if (!viewport || locked === null) return;
    shell.root.style.setProperty('--vt', `${viewport.offsetTop}px`);
    shell.root.style.setProperty('--vh', `${viewport.height}px`);
  };

  const setOpen = (open: boolean): void => {
    if (destroyed || !bubble || store.get().open === open) return;
    const focused = shell.shadow.activeElement;
    // Read before closing: once the panel is hidden the browser has already moved focus away.
    const focusInPanel = !!focused && focused !== shell.launcher;
    store.set({ open });
    shell.setOpen(open);
    lockPage(open);
    followViewport();
    if (open) {
      // On a touch screen, focusing the input would pop the keyboard up over the conversation: the panel takes focus.
      (matchMedia('(pointer: coarse)').matches ? part('panel') : (part('input') ?? part('panel')))?.focus();
      void conversation.restore();
    } else if (focusInPanel) shell.launcher?.focus();
    // Operator messages arrive live while the panel is open; a closed one stops listening (DESIGN.md 7).
    conversation.listen(open);
  };

  let language = '';
  let last: string | undefined = '';
  let unread = 0;
  let counted = '';
  const draw = (): void => {
    if (destroyed) return;
    const state = store.get();
    // The launcher speaks the widget's language once it is known.
    const spoken = state.config?.language || navigator.language;
    if (spoken !== language) {
      const t = stringsFor((language = spoken));
      shell.setLabels([t[OPEN], t[CLOSE]]);
      shell.theme(state.config?.theme);
    }
    render(<App kind={options.kind} state={state} conversation={conversation} setOpen={setOpen} />, shell.slot);
    // Opening the chat (or writing in a chatbox) is the visitor's consent to keep the conversation.
    if ((bubble && state.open) || state.messages.length) holdWrites(false);
    // Replies that arrive while the panel is closed (not a restored history): counted on the launcher until it opens.
    const newest = state.messages[state.messages.length - 1];
    if (state.open) unread = 0;
    else if (newest && newest.key !== counted && newest.role === 'assistant' && !state.loading) unread++;
    counted = newest?.key ?? '';
    shell.setUnread(unread);
    const list = part('messages');
    const typingShown = state.typing && !shown;
    shown = state.typing;
    // A streamed reply keeps its key when it completes; gaining its id (and its cards) reads it again from its start.
    const mark = newest?.id ?? newest?.key;
    if (!list || (mark === last && !typingShown)) return;
    const arrived = newest && mark !== last && newest.role === 'assistant';
    last = mark;
    const start = arrived ? shell.shadow.querySelector(`[data-key="${newest.key}"]`) : null;
    // A new reply is read from its start (a long one would otherwise show its end first); the visitor's message
    // and the typing indicator keep the latest in view. Nothing else moves the list (the indicator going away).
    if (start) list.scrollTop += start.getBoundingClientRect().top - list.getBoundingClientRect().top - 8;
    else list.scrollTop = list.scrollHeight;
  };
  shell.adopt(css);
  const unsubscribe = store.subscribe(draw);
  // Back online: send what waits at once (while the service is away, the outbox retries on its own timer).
  const online = (): void => {
    store.set({ online: true });
    conversation.retryNow();
  };
  const offline = (): void => store.set({ online: false });
  // Removed by destroy's abort.
  const listening = { signal: abort.signal };
  window.addEventListener('online', online, listening);
  window.addEventListener('offline', offline, listening);
  window.visualViewport?.addEventListener('resize', followViewport, listening);
  window.visualViewport?.addEventListener('scroll', followViewport, listening);
  draw();
  conversation.start();
  if (!bubble) {
    void conversation.restore();
    conversation.listen(true);
  }

  return {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!store.get().open),
    get isOpen() {
      return !destroyed && store.get().open;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      abort.abort();
      tokens.dispose();
      conversation.dispose();
      unsubscribe();
      lockPage(false);
      render(null, shell.slot);
      shell.remove();
      options.onDestroyed();
    },
    tokenSourceChanged: () => tokens.sourceChanged(),
  };
}
