import type { WidgetConfig } from './api-types.js';
import { validateBubbleConfig, validateChatboxConfig } from './config-validation.js';
import { validateIdentify, type VisitorDetails } from './identify-validation.js';
import { readTokenClaims, type TokenClaims } from './jwt.js';
import type { InstanceOptions, WidgetInstance } from './instance.js';
import { createShell, type Shell } from './shell.js';
import { clearStorage, hasOutbox, loadVisitorId } from './storage.js';
import type { BubbleConfig, BubbleInstance, ChatboxConfig, ChatboxInstance, IdentifyPayload, IdentityTokenProvider } from './types.js';
import { warn } from './warn.js';

/** What the script tag said (`data-api-key`, `data-api-base`, `data-identity-endpoint`), set once by `web.ts`. */
export interface ScriptDefaults {
  apiKey?: string | undefined;
  apiBase?: string | undefined;
  /** `data-identity-endpoint`, checked to be on the page's origin, as an absolute URL. */
  identityEndpoint?: string | undefined;
  /** `data-consent="required"`: no storage before the visitor opens the chat or the site calls `consent(true)`. */
  consentRequired?: boolean;
}

/** What the panel chunk exports (`panel.tsx`): everything past the launcher. */
export interface PanelModule {
  createInstance(options: InstanceOptions & { shell: Shell; config: Promise<WidgetConfig>; readClaims(token: string): TokenClaims | null }): WidgetInstance;
  clearStorage(): void;
  holdWrites(hold: boolean): void;
}

/** The SDK's whole state: the singleton rule of spec 4.9 is `active`. */
let defaults: ScriptDefaults = {};
let details: VisitorDetails = {};
let provider: IdentityTokenProvider | null = null;
let active: WidgetInstance | null = null;
let consented = false;
/** How the panel arrives: a module URL next to widget.js (`web.ts`), or the bundler's chunk (`index.ts`). */
let panelSource: (() => Promise<PanelModule>) | null = null;
let panel: PanelModule | null = null;
let panelRequest: Promise<PanelModule> | null = null;

export function setPanelSource(source: () => Promise<PanelModule>): void {
  panelSource = source;
}

/** Loads the panel once per page; a failure (a network blip) lets the next call try again. */
export function loadPanel(): Promise<PanelModule> {
  panelRequest ??= (panelSource ? panelSource() : Promise.reject(new Error('no panel source'))).then(
    (module) => (panel = module),
    (error: unknown) => {
      panelRequest = null;
      throw error;
    },
  );
  return panelRequest;
}

/** The widget's name, language and theme, read by the loader so the launcher wears the theme at once. */
async function fetchConfig(apiBase: string, apiKey: string): Promise<WidgetConfig> {
  const response = await fetch(`${apiBase}/widget/config`, { headers: { 'X-API-Key': apiKey } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return ((await response.json()) as { data: WidgetConfig }).data;
}

/** After the page's own work: when the browser is idle, or 2 s later in browsers without `requestIdleCallback`. */
const whenIdle = (run: () => void): void => {
  if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 4000 });
  else setTimeout(run, 2000);
};

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
 * May the widget write to storage now? Without `data-consent="required"`, yes; with it, once the site granted
 * consent, or when an earlier page already stored a visitor (the visitor opened the chat then).
 */
const mayStore = (): boolean => !defaults.consentRequired || consented || loadVisitorId() !== null;

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
  const bubble = kind === 'bubble';
  const container = 'container' in checked ? (checked.container ?? null) : null;
  const appearance = 'appearance' in checked ? checked.appearance : null;
  let real: WidgetInstance | null = null;
  let wantOpen = !bubble;
  let destroyed = false;
  let shell: Shell | null = null;

  const options: InstanceOptions = {
    kind,
    apiKey,
    apiBase,
    appearance,
    container,
    details,
    provider: () => provider,
    identityEndpoint: defaults.identityEndpoint,
    consent: mayStore(),
    forgetIdentity: () => {
      details = {};
    },
    onDestroyed: () => {
      if (active === instance) active = null;
    },
  };
  // The loader's own request: the launcher wears the widget's theme before the panel exists.
  const remote = fetchConfig(apiBase, apiKey);
  remote.catch(() => undefined);

  const start = (module: PanelModule): void => {
    if (destroyed || real || !shell) return;
    // The loader's JWT reader (it checks identify() tokens with it): the panel does not ship a second copy.
    real = module.createInstance({ ...options, shell, config: remote, readClaims: readTokenClaims });
    if (wantOpen && bubble) real.open();
  };
  const load = (): void => {
    if (panel) return start(panel);
    loadPanel().then(start, (error: unknown) => warn(`panel not loaded (${String(error)}); retried on the next open`));
  };
  const setOpen = (open: boolean): void => {
    if (destroyed || !bubble) return;
    if (real) return open ? real.open() : real.close();
    wantOpen = open;
    shell?.setOpen(open);
    if (open) load();
  };

  const attach = (): void => {
    if (destroyed) return;
    shell = createShell(container ?? document.body, {
      kind,
      appearance,
      fullscreen: !bubble && !container,
      onToggle: () => setOpen(!(real ? real.isOpen : wantOpen)),
      onEscape: () => setOpen(false),
    });
    remote.then((data) => !destroyed && shell?.theme(data.theme), () => undefined);
    // A chatbox shows the conversation at once; messages left unsent by the previous page must go out now; the
    // bubble's panel otherwise loads on the first open or when the browser is idle, whichever comes first.
    if (!bubble || hasOutbox(apiKey) || panel) load();
    else whenIdle(load);
  };
  // An async script in <head> may run before <body> exists.
  if (container || document.body) attach();
  else document.addEventListener('DOMContentLoaded', attach, { once: true });

  const instance: WidgetInstance = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!(real ? real.isOpen : wantOpen)),
    get isOpen() {
      return !destroyed && (real ? real.isOpen : bubble ? wantOpen : true);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      document.removeEventListener('DOMContentLoaded', attach);
      if (real) real.destroy();
      else {
        shell?.remove();
        options.onDestroyed();
      }
    },
    tokenSourceChanged: () => real?.tokenSourceChanged(),
  };
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
  panel?.clearStorage();
});

/**
 * With `data-consent="required"`, grants (true) or withdraws (false) the visitor's consent to keep the widget's
 * data (visitorId, conversation, unsent messages) in the browser's storage. Withdrawing also clears it; the
 * conversation on screen goes on in memory.
 * @example cookieBanner.onAccept(() => Svc.consent(true));
 */
export const consent: (granted: boolean) => void = guard('consent', undefined, (granted: boolean) => {
  consented = granted === true;
  if (!consented) clearStorage();
  panel?.holdWrites(!consented);
});
