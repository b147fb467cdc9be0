import { HEX_COLOR } from './color.js';
import { safeWebUrl } from './safe-url.js';
import { sanitizeSvg } from './svg-icon.js';
import type { BubbleConfig, BubbleOffset, BubblePosition, ChatboxConfig } from './types.js';
import { pick, range, type Check } from './validation.js';
import { ignored } from './warn.js';

export const DEFAULT_COLOR = '#6366f1';
export const DEFAULT_SIZE = 56;
/** Spec 4.9: the icon is about 43% of the bubble's diameter by default. */
export const ICON_RATIO = 0.43;

export type IconSource = { kind: 'default' } | { kind: 'svg'; svg: SVGSVGElement } | { kind: 'image'; src: string };

/**
 * A bubble's look after validation. `position` and `bubbleColor` stay unset when the page did not choose them,
 * so the widget's theme (from `/widget/config`) can fill them in before the defaults do.
 */
export interface Appearance {
  position?: BubblePosition | undefined;
  bubbleColor?: string | undefined;
  bubbleSize: number;
  bubbleIconSize: number;
  icon: IconSource;
  /** Both sides are kept: the side used depends on the final position, which the theme may decide. */
  offset: Required<BubbleOffset>;
}

export interface Connection {
  apiKey?: string | undefined;
  apiBase?: string | undefined;
}

/** `pk_live_…` only. A server key in a page would hand every visitor the account's API: refuse it loudly. */
const apiKey: Check = (value) =>
  !(typeof value === 'string' && /^pk_live_[\w-]{1,200}$/.test(value)) &&
  (String(value).startsWith('sk_')
    ? 'is a server key: never put one in a web page (rotate it); use the public pk_live_ key'
    : 'must be a public key (pk_live_…)');

const apiBase: Check = (value) => !safeWebUrl(value) && 'must be an absolute http(s) URL';

const CONNECTION = { apiKey, apiBase };

const BUBBLE = {
  ...CONNECTION,
  position: (value: unknown) => value !== 'bottom-right' && value !== 'bottom-left' && 'must be "bottom-right" or "bottom-left"',
  bubbleColor: (value: unknown) => !(typeof value === 'string' && HEX_COLOR.test(value)) && 'must be a 6-digit hex colour such as #6366f1',
  bubbleSize: range(1, 200),
  bubbleIcon: (value: unknown) => typeof value !== 'string' && 'must be SVG markup or an http(s) image URL',
  bubbleIconSize: range(1, 200),
  offset: (value: unknown) => (typeof value !== 'object' || !value) && 'must be an object',
};

/** The API address without a trailing slash, so paths can be appended. */
export const baseUrl = (value: string | undefined): string | undefined => value?.replace(/\/+$/, '');

/** Settings the script tag carries (`data-api-key`, `data-api-base`). */
export const validateConnection = (input: Connection, where: string): Connection => {
  const valid = pick<Connection>(input, CONNECTION, where);
  return { apiKey: valid.apiKey, apiBase: baseUrl(valid.apiBase) };
};

function icon(value: string | undefined): IconSource {
  if (value === undefined) return { kind: 'default' };
  const svg = value.trim().startsWith('<') && sanitizeSvg(value);
  const src = !svg && safeWebUrl(value, document.baseURI);
  if (svg) return { kind: 'svg', svg };
  if (src) return { kind: 'image', src };
  ignored('bubble()', 'bubbleIcon', 'is neither an SVG document nor an http(s) image URL');
  return { kind: 'default' };
}

export function validateChatboxConfig(input: ChatboxConfig | undefined): Connection & { container?: HTMLElement | undefined } {
  const container = (value: unknown) => !(value instanceof HTMLElement) && 'must be an HTMLElement';
  const valid = pick<ChatboxConfig>(input, { ...CONNECTION, container }, 'chatbox()');
  return { ...valid, apiBase: baseUrl(valid.apiBase) };
}

export function validateBubbleConfig(input: BubbleConfig | undefined): Connection & { appearance: Appearance } {
  const valid = pick<BubbleConfig>(input, BUBBLE, 'bubble()');
  const size = valid.bubbleSize ?? DEFAULT_SIZE;
  let iconSize = valid.bubbleIconSize;
  if (iconSize! > size) {
    ignored('bubble()', 'bubbleIconSize', 'must not exceed bubbleSize');
    iconSize = undefined;
  }
  const offset = pick<BubbleOffset>(valid.offset, { bottom: range(0, 2000), right: range(0, 2000), left: range(0, 2000) }, 'bubble() offset');
  return {
    apiKey: valid.apiKey,
    apiBase: baseUrl(valid.apiBase),
    appearance: {
      position: valid.position,
      bubbleColor: valid.bubbleColor?.toLowerCase(),
      bubbleSize: size,
      bubbleIconSize: iconSize ?? Math.round(size * ICON_RATIO),
      icon: icon(valid.bubbleIcon),
      offset: { bottom: 20, right: 20, left: 20, ...offset },
    },
  };
}
