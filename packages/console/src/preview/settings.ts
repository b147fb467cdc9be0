import type { Theme } from '../api/types.js';

/** What the preview frame shows: the widget's settings as being edited. */
export interface PreviewSettings {
  widgetId: string;
  name: string;
  greeting: string;
  language: string;
  theme: Theme;
}

/** A well-formed public key that is nobody's: the preview's requests other than the config are refused. */
export const PREVIEW_KEY = 'pk_live_console_preview';

export const previewHash = (settings: PreviewSettings): string => `#${encodeURIComponent(JSON.stringify(settings))}`;

export function parsePreview(hash: string): PreviewSettings | null {
  try {
    const value = JSON.parse(decodeURIComponent(hash.replace(/^#/, ''))) as PreviewSettings;
    return value && typeof value === 'object' && typeof value.theme === 'object' ? value : null;
  } catch {
    return null;
  }
}
