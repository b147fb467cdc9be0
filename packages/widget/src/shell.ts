import type { Appearance } from './config-validation.js';
import { CHAT_PATH, CLOSE_PATH } from './icon-paths.js';
import { safeWebUrl } from './safe-url.js';
import css from './launcher.css?inline';
import { adoptStyles } from './stylesheet.js';
import { themeVars, type ThemeInput } from './theme.js';

/** The host element's name; pages style the widget with `svc-chat-widget::part(launcher)` and the like. */
export const ELEMENT_NAME = 'svc-chat-widget';
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * What the loader draws at once, without Preact: the `<svc-chat-widget>` host with its shadow root, the themed
 * root and, for a bubble, the launcher. The panel (loaded later) renders into `slot` and drives the launcher
 * through `setOpen` and `setUnread`.
 */
export interface Shell {
  shadow: ShadowRoot;
  /** Carries the theme's custom properties and the kind and position classes. */
  root: HTMLElement;
  /** Where the panel renders. */
  slot: HTMLElement;
  /** Adds a stylesheet to the shadow root (the panel's own, with the loader's code for it). */
  adopt(css: string): void;
  launcher: HTMLButtonElement | null;
  /** Applies the widget's theme (the page's `bubble()` options still win). */
  theme(theme: ThemeInput | undefined): void;
  /** The launcher's names when closed and open, in the widget's language (the panel knows its strings). */
  setLabels(labels: [string, string]): void;
  setOpen(open: boolean): void;
  /** Replies that arrived while the panel was closed; 0 hides the badge. */
  setUnread(count: number): void;
  remove(): void;
}

export interface ShellOptions {
  kind: 'bubble' | 'chatbox';
  appearance: Appearance | null;
  /** A chatbox given no container covers the viewport. */
  fullscreen: boolean;
  onToggle(): void;
  onEscape(): void;
}

/** A decorative icon; the close cross is drawn with a stroke (launcher.css `.x`), the chat bubble filled. */
function icon(path: string, stroke: boolean): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  const line = document.createElementNS(SVG_NS, 'path');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  if (stroke) svg.classList.add('x');
  line.setAttribute('d', path);
  svg.append(line);
  return svg;
}

function image(src: string): HTMLImageElement {
  const img = document.createElement('img');
  img.src = src;
  img.alt = '';
  img.referrerPolicy = 'no-referrer';
  return img;
}

function launcherIcon(appearance: Appearance): Element {
  const { icon: source } = appearance;
  if (source.kind === 'svg') return source.svg.cloneNode(true) as Element;
  return source.kind === 'image' ? image(source.src) : icon(CHAT_PATH, false);
}

export function createShell(parent: HTMLElement, options: ShellOptions): Shell {
  const { kind, appearance } = options;
  if (!customElements.get(ELEMENT_NAME)) customElements.define(ELEMENT_NAME, class extends HTMLElement {});
  const host = document.createElement(ELEMENT_NAME);
  host.setAttribute('data-kind', kind);
  // Open, so end-to-end tests and assistive tooling can reach in; isolation comes from the shadow boundary itself.
  const shadow = host.attachShadow({ mode: 'open' });
  adoptStyles(shadow, css);
  const root = document.createElement('div');
  const slot = document.createElement('div');
  slot.className = 'slot';
  // English until the panel, which holds the strings of every language, arrives (on open or when idle).
  let labels = ['Open chat', 'Close chat'];
  let open = false;
  let unread = 0;
  let dark: MediaQueryList | null = null;
  let darkMode: unknown;
  let launcher: HTMLButtonElement | null = null;
  let badge: HTMLElement | null = null;
  let closed: Element | null = null;
  let opened: Element | null = null;

  const label = (): void => launcher?.setAttribute('aria-label', labels[open ? 1 : 0] + (unread ? ` (${unread})` : ''));
  const scheme = (): void => {
    root.classList.toggle('dark', darkMode === 'dark' || (darkMode === 'auto' && !!dark?.matches));
  };
  if (kind === 'bubble' && appearance) {
    launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.className = 'launcher';
    launcher.setAttribute('part', 'launcher');
    launcher.setAttribute('data-testid', 'svc-launcher');
    launcher.setAttribute('aria-expanded', 'false');
    closed = launcherIcon(appearance);
    opened = icon(CLOSE_PATH, true);
    opened.setAttribute('hidden', '');
    badge = document.createElement('span');
    badge.className = 'badge';
    badge.setAttribute('part', 'badge');
    badge.setAttribute('data-testid', 'svc-unread');
    badge.hidden = true;
    launcher.append(closed, opened, badge);
    launcher.addEventListener('click', options.onToggle);
    label();
    root.append(launcher);
  }
  root.append(slot);
  // On the root, so Escape works from the launcher as well as from inside the panel.
  root.addEventListener('keydown', (event) => {
    if (kind === 'bubble' && event.key === 'Escape') {
      event.stopPropagation();
      options.onEscape();
    }
  });
  shadow.append(root);

  const shell: Shell = {
    shadow,
    root,
    slot,
    launcher,
    adopt: (sheet) => adoptStyles(shadow, sheet),
    setLabels(next) {
      labels = next;
      label();
    },
    theme(theme) {
      const { vars, position } = themeVars(theme, appearance);
      root.className = `root ${kind} ${position}${options.fullscreen ? ' fullscreen' : ''}`;
      for (const [name, value] of vars) root.style.setProperty(name, value);
      // Dark mode: `auto` follows the visitor's system setting, live.
      darkMode = theme?.darkMode;
      if (darkMode === 'auto' && !dark) (dark = matchMedia('(prefers-color-scheme: dark)')).addEventListener('change', scheme);
      scheme();
      // The theme's launcher icon, unless the page chose one.
      const src = appearance?.icon.kind === 'default' && safeWebUrl(theme?.launcherIcon);
      if (src && closed && !(closed instanceof HTMLImageElement && closed.src === src)) {
        const replacement = image(src);
        replacement.hidden = open;
        closed.replaceWith(replacement);
        closed = replacement;
      }
    },
    setOpen(next) {
      open = next;
      launcher?.setAttribute('aria-expanded', String(open));
      closed?.toggleAttribute('hidden', open);
      opened?.toggleAttribute('hidden', !open);
      label();
    },
    setUnread(count) {
      if (!badge) return;
      unread = count;
      badge.hidden = count === 0;
      badge.textContent = count > 9 ? '9+' : String(count);
      label();
    },
    remove() {
      dark?.removeEventListener('change', scheme);
      host.remove();
    },
  };
  shell.theme(undefined);
  parent.append(host);
  return shell;
}
