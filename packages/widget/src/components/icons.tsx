import type { VNode } from 'preact';
import { CLOSE_PATH, THUMB_PATH } from '../icon-paths.js';

/** Decorative icons: the buttons around them carry the accessible names. */
const svg = (children: VNode, fill = 'currentColor'): VNode => (
  <svg viewBox="0 0 24 24" fill={fill} aria-hidden="true">
    {children}
  </svg>
);

export const CloseIcon = (): VNode =>
  svg(<path d={CLOSE_PATH} stroke="currentColor" stroke-width="2.2" stroke-linecap="round" />, 'none');

export const SendIcon = (): VNode => svg(<path d="M3 20.5 22 12 3 3.5 3 10l13 2-13 2Z" />);

/** Thumbs up; the stylesheet turns it over for thumbs down. Drawn, since emoji fonts are not everywhere. */
export const ThumbIcon = (): VNode => svg(<path d={THUMB_PATH} />);
