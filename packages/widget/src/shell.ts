import type { Appearance } from './config-validation.js';
import { CHAT_PATH, CLOSE_PATH } from './icon-paths.js';
import { launcherLabels } from './launcher-labels.js';
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
  launcher: HTMLButtonElement | null;
  /** Applies the widget's theme (the page's `bubble()` options still win) and its language. */
  theme(theme: ThemeInput | undefined, language?: string): void;
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

function icon(path: string, stroke: boolean): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  const line = document.createElementNS(SVG_NS, 'path');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('fill', stroke ? 'none' : 'currentColor');
  line.setAttribute('d', path);
  if (stroke) {
    line.setAttribute('stroke', 'currentColor');
    line.setAttribute('stroke-width', '2.2');
    line.setAttribute('stroke-linecap', 'round');
  }
  svg.append(line);
  return svg;
}

function launcherIcon(appearance: Appearance): Element {
  const { icon: source } = appearance;
  if (source.kind === 'svg') return source.svg.cloneNode(true) as Element;
  if (source.kind === 'image') {
    const img = document.createElement('img');
    img.src = source.src;
    img.alt = '';
    img.referrerPolicy = 'no-referrer';
    return img;
  }
  return icon(CHAT_PATH, false);
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
  let labels = launcherLabels(navigator.language);
  let open = false;
  let launcher: HTMLButtonElement | null = null;
  let badge: HTMLElement | null = null;
  let closed: Element | null = null;
  let opened: Element | null = null;

  const label = (): void => launcher?.setAttribute('aria-label', labels[open ? 1 : 0]);
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
    theme(theme, language) {
      const { vars, position } = themeVars(theme, appearance);
      root.className = `root ${kind} ${position}${options.fullscreen ? ' fullscreen' : ''}`;
      for (const [name, value] of vars) root.style.setProperty(name, value);
      if (language) labels = launcherLabels(language);
      label();
    },
    setOpen(next) {
      open = next;
      launcher?.setAttribute('aria-expanded', String(open));
      closed?.toggleAttribute('hidden', open);
      opened?.toggleAttribute('hidden', !open);
      label();
    },
    setUnread(count) {
      if (!badge || !launcher) return;
      badge.hidden = count === 0;
      badge.textContent = count > 9 ? '9+' : String(count);
    },
    remove: () => host.remove(),
  };
  shell.theme(undefined);
  parent.append(host);
  return shell;
}
