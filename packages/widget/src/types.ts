/** Public types of the browser SDK (spec section 4.9). */

export type BubblePosition = 'bottom-right' | 'bottom-left';

/** Distances in pixels from the viewport edges; `right` applies to `bottom-right`, `left` to `bottom-left`. */
export interface BubbleOffset {
  bottom?: number;
  right?: number;
  left?: number;
}

interface CommonConfig {
  /**
   * Public key (`pk_live_…`). Required by the spec; may be left out when the script tag carries `data-api-key`.
   * A server key (`sk_live_…`) is refused: it must never appear in a web page.
   */
  apiKey?: string;
  /**
   * Where the API lives. Defaults to the folder `widget.js` was loaded from (its origin when served at
   * `/widget.js`), or the script tag's `data-api-base`.
   */
  apiBase?: string;
}

export interface ChatboxConfig extends CommonConfig {
  /** Element the chatbox fills. Without it the chatbox fills the viewport. */
  container?: HTMLElement;
}

export interface BubbleConfig extends CommonConfig {
  /** Corner of the viewport. Default `bottom-right`. */
  position?: BubblePosition;
  /** 6-digit hex colour such as `#6366f1` (the default). */
  bubbleColor?: string;
  /** Button diameter in pixels. Default 56. */
  bubbleSize?: number;
  /** Inline SVG markup (sanitised) or an image URL. Default: a chat icon. */
  bubbleIcon?: string;
  /** Icon size in pixels. Default: about 43% of `bubbleSize`. */
  bubbleIconSize?: number;
  offset?: BubbleOffset;
}

export interface ChatboxInstance {
  /** Removes the widget from the page, stops every timer and listener, and frees the singleton. */
  destroy(): void;
}

export interface BubbleInstance extends ChatboxInstance {
  open(): void;
  close(): void;
  toggle(): void;
  readonly isOpen: boolean;
}

/** `Svc.identify()` payload. Every property is optional; bad values are reported with `console.warn` and ignored. */
export interface IdentifyPayload {
  /** Identity token (JWT) signed by the site's server; memory only. `null` means nobody is signed in. */
  identityToken?: string | null;
  /** Random, unguessable label; 1-128 of `A-Z a-z 0-9 _ - . : @`. Generated when left out. */
  visitorId?: string;
  /** At most 100 characters; unverified. */
  name?: string;
  /** Unverified. */
  email?: string;
  /** At most 30 characters; unverified. */
  phone?: string;
  /** At most 100 characters. */
  company?: string;
  /** -90 to 90; only together with `longitude`. */
  latitude?: number;
  /** -180 to 180; only together with `latitude`. */
  longitude?: number;
}

/** Returns the current identity token, or null when nobody is signed in. May be async. */
export type IdentityTokenProvider = () => string | null | Promise<string | null>;

/** The global `Svc` object: the five commands of spec 4.9. */
export interface SvcApi {
  bubble(config?: BubbleConfig): BubbleInstance;
  chatbox(config?: ChatboxConfig): ChatboxInstance;
  identify(payload: IdentifyPayload): void;
  setIdentityTokenProvider(provider: IdentityTokenProvider | null): void;
  reset(): void;
  consent(granted: boolean): void;
}
