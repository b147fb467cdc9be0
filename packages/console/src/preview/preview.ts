/**
 * The theme editor's preview frame (`/console/preview.html`, same origin as the console): loads the real
 * `/widget.js` from this server and shows its bubble, open. The edited, unsaved widget settings arrive in the
 * location's hash (JSON, written by the console's editor): the bubble's colour and position go in as `Svc.bubble()`
 * options, and the widget's own `/widget/config` request is answered with the edited name, greeting and theme, so
 * the title, subtitle, avatar and dark mode show before they are saved. Nothing is sent anywhere: the preview key
 * is no key, so a message typed here is refused by the service.
 */
import '../styles.css';
import type { BubbleInstance, SvcApi } from '@svc/widget';
import { parsePreview, PREVIEW_KEY, type PreviewSettings } from './settings.js';

declare global {
  interface Window {
    Svc?: SvcApi;
  }
}

let current: PreviewSettings | null = parsePreview(location.hash);
let instance: BubbleInstance | null = null;

const serverFetch = window.fetch.bind(window);
window.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (current && url.origin === location.origin && url.pathname === '/widget/config') {
    const { widgetId, name, greeting, language, theme } = current;
    const body = JSON.stringify({ data: { widgetId, name, greeting, language, theme }, meta: { creditsConsumed: 0 } });
    return Promise.resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }));
  }
  return serverFetch(input, init);
};

function show(): void {
  const svc = window.Svc;
  if (!svc || !current) return;
  instance?.destroy();
  const { primaryColor, position } = current.theme;
  instance = svc.bubble({ apiKey: PREVIEW_KEY, apiBase: location.origin, ...(primaryColor ? { bubbleColor: primaryColor } : {}), ...(position ? { position } : {}) });
  instance.open();
  document.documentElement.dataset.previewed = JSON.stringify(current.theme);
}

window.addEventListener('hashchange', () => {
  current = parsePreview(location.hash);
  show();
});

const script = document.createElement('script');
script.src = '/widget.js';
script.async = true;
script.dataset.apiKey = PREVIEW_KEY;
script.addEventListener('load', show);
document.head.append(script);
