import { validateBubbleConfig, validateChatboxConfig } from './config-validation.js';
import { validateIdentify, type VisitorDetails } from './identify-validation.js';
import { createInstance, type WidgetInstance } from './instance.js';
import { readTokenClaims } from './jwt.js';
import { clearStorage } from './storage.js';
import type { BubbleConfig, BubbleInstance, ChatboxConfig, ChatboxInstance, IdentifyPayload, IdentityTokenProvider } from './types.js';
import { warn } from './warn.js';

/** What the script tag said (`data-api-key`, `data-api-base`, `data-identity-endpoint`), set once by `web.ts`. */
export interface ScriptDefaults {
  apiKey?: string | undefined;
  apiBase?: string | undefined;
  identityEndpoint?: IdentityTokenProvider | undefined;
}

/** The SDK's whole state: the singleton rule of spec 4.9 is `active`. */
let defaults: ScriptDefaults = {};
let details: VisitorDetails = {};
let provider: IdentityTokenProvider | null = null;
let active: WidgetInstance | null = null;

/** Returned when a widget cannot start: calling its members is harmless, so host code never crashes on it. */
const INERT: BubbleInstance = {
  open() {},
  close() {},
  toggle() {},
  destroy() {},
  isOpen: false,
};

export function setScriptDefaults(next: ScriptDefaults): void {
  defaults = next;
}

/**
 * Where the token comes from, most specific first: a registered provider, the script tag's endpoint, then a token
 * given to `identify()` (used until its `exp`, after which the visitor counts as signed out).
 */
function tokenSource(): IdentityTokenProvider | null {
  if (provider) return provider;
  if (defaults.identityEndpoint) return defaults.identityEndpoint;
  const token = details.identityToken;
  if (!token) return null;
  const exp = readTokenClaims(token)?.exp ?? null;
  return () => (exp === null || exp * 1000 > Date.now() ? token : null);
}

/** The SDK never throws into the page that embeds it. */
function guard<A extends unknown[], R>(name: string, fallback: R, run: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return run(...args);
    } catch (error) {
      warn(`${name}() failed: ${String(error)}`);
      return fallback;
    }
  };
}

function create(kind: 'bubble' | 'chatbox', config: BubbleConfig | ChatboxConfig | undefined): BubbleInstance {
  if (active) {
    warn(`${kind}(): a widget is already active; returning it`);
    return active;
  }
  const checked = kind === 'bubble' ? validateBubbleConfig(config as BubbleConfig) : validateChatboxConfig(config as ChatboxConfig);
  const apiKey = checked.apiKey ?? defaults.apiKey;
  const apiBase = checked.apiBase ?? defaults.apiBase;
  if (!apiKey) {
    warn(`${kind}(): no apiKey (nor data-api-key)`);
    return INERT;
  }
  if (!apiBase) {
    warn(`${kind}(): no apiBase`);
    return INERT;
  }
  const instance = createInstance({
    kind,
    apiKey,
    apiBase,
    appearance: 'appearance' in checked ? checked.appearance : null,
    container: 'container' in checked ? (checked.container ?? null) : null,
    details,
    tokenSource,
    forgetIdentity: () => {
      details = {};
    },
    onDestroyed: () => {
      if (active === instance) active = null;
    },
  });
  active = instance;
  return instance;
}

/**
 * Shows a floating button that opens the chat panel (spec 4.9).
 * @example Svc.bubble({ apiKey: 'pk_live_…', position: 'bottom-left', bubbleColor: '#0f766e' }).open();
 */
export const bubble: (config?: BubbleConfig) => BubbleInstance = guard('bubble', INERT, (config?: BubbleConfig) =>
  create('bubble', config),
);

/**
 * Shows the chat panel in `container`, or over the whole viewport without one (spec 4.9).
 * @example Svc.chatbox({ apiKey: 'pk_live_…', container: document.getElementById('help')! });
 */
export const chatbox: (config?: ChatboxConfig) => ChatboxInstance = guard('chatbox', INERT, (config?: ChatboxConfig) =>
  create('chatbox', config),
);

/**
 * Says who the visitor is, before `chatbox()` or `bubble()` (spec 4.9). Each call replaces the previous payload.
 * @example Svc.identify({ name: 'Ada', email: 'ada@example.com' });
 */
export const identify: (payload: IdentifyPayload) => void = guard('identify', undefined, (payload: IdentifyPayload) => {
  if (active) {
    warn('identify() after bubble() or chatbox() is ignored: call reset() first');
    return;
  }
  details = validateIdentify(payload);
});

/**
 * Registers the function that returns the visitor's identity token (or null), called before the first message
 * and within 60 s of the token's expiry; null unregisters it. It survives `reset()`: it holds no visitor data.
 * @example Svc.setIdentityTokenProvider(async () => (await fetch('/api/svc-token')).json().then((r) => r.token));
 */
export const setIdentityTokenProvider: (fn: IdentityTokenProvider | null) => void = guard(
  'setIdentityTokenProvider',
  undefined,
  (fn: IdentityTokenProvider | null) => {
    if (fn !== null && typeof fn !== 'function') {
      warn('setIdentityTokenProvider() takes a function or null; ignored');
      return;
    }
    provider = fn;
    active?.tokenSourceChanged();
  },
);

/**
 * Removes the widget, forgets the visitor (storage and memory) and returns to a clean state (spec 4.9).
 * @example Svc.reset(); Svc.identify({ name: 'Grace' }); Svc.bubble();
 */
export const reset: () => void = guard('reset', undefined, () => {
  active?.destroy();
  active = null;
  details = {};
  clearStorage();
});
