import type { VNode } from 'preact';
import type { IconSource } from '../config-validation.js';
import type { Strings } from '../i18n.js';
import { ChatIcon, CloseIcon } from './icons.js';

interface LauncherProps {
  icon: IconSource;
  open: boolean;
  t: Strings;
  onToggle(): void;
}

export function Launcher({ icon, open, t, onToggle }: LauncherProps): VNode {
  return (
    <button
      type="button"
      part="launcher"
      class="launcher"
      data-testid="svc-launcher"
      aria-label={open ? t.close : t.open}
      aria-expanded={open}
      onClick={onToggle}
    >
      {open ? (
        <CloseIcon />
      ) : icon.kind === 'svg' ? (
        // A sanitised SVG is a DOM node, not markup: it is cloned in, never parsed from a string here.
        <span ref={(span) => void (span?.firstChild ?? span?.append(icon.svg.cloneNode(true)))} />
      ) : icon.kind === 'image' ? (
        <img src={icon.src} alt="" referrerpolicy="no-referrer" />
      ) : (
        <ChatIcon />
      )}
    </button>
  );
}
