import { HEX_COLOR, iconColorOn, shadeForWhiteText } from './color.js';
import { DEFAULT_COLOR, type Appearance } from './config-validation.js';
import type { BubblePosition } from './types.js';

/** The part of `/widget/config`'s theme the launcher and the panel read; anything else in it is ignored. */
export interface ThemeInput {
  primaryColor?: unknown;
  position?: unknown;
  darkMode?: unknown;
  launcherIcon?: unknown;
}

/**
 * The page's choices win over the widget's theme, which wins over the defaults. Every value here was validated
 * (hex colours, finite numbers), so these custom properties cannot carry anything else.
 */
export function themeVars(theme: ThemeInput | undefined, appearance: Appearance | null): { vars: [string, string][]; position: BubblePosition } {
  const themeColor = typeof theme?.primaryColor === 'string' && HEX_COLOR.test(theme.primaryColor) ? theme.primaryColor : undefined;
  const themePosition = theme?.position === 'bottom-left' || theme?.position === 'bottom-right' ? theme.position : undefined;
  const color = appearance?.bubbleColor ?? themeColor ?? DEFAULT_COLOR;
  const position = appearance?.position ?? themePosition ?? 'bottom-right';
  const vars: [string, string][] = [
    ['--svc-brand', color],
    ['--svc-brand-strong', shadeForWhiteText(color)],
    ['--svc-on-brand', iconColorOn(color)],
  ];
  if (appearance) {
    vars.push(
      ['--svc-size', `${appearance.bubbleSize}px`],
      ['--svc-icon-size', `${appearance.bubbleIconSize}px`],
      ['--svc-bottom', `${appearance.offset.bottom}px`],
      ['--svc-side', `${position === 'bottom-left' ? appearance.offset.left : appearance.offset.right}px`],
    );
  }
  return { vars, position };
}
