/**
 * The entry of `widget.js`, the script sites embed:
 *
 *   <script async src="https://chat.example.com/widget.js" data-api-key="pk_live_…"
 *           data-identity-endpoint="/api/svc-token" onload="Svc.bubble()"></script>
 *
 * It defines `window.Svc` and nothing else global, and exports nothing (an export would make the IIFE assign a
 * global of its own). It shows nothing by itself: the page calls `Svc.bubble()` or `Svc.chatbox()` from the
 * script's load event, so `identify()` and `setIdentityTokenProvider()` can run first, as spec 4.9 requires.
 */
import { importPanel } from './panel-import.js';
import { ownScript, readScriptDefaults } from './script-defaults.js';
import { bubble, chatbox, consent, identify, reset, setIdentityTokenProvider, setPanelSource, setScriptDefaults } from './sdk.js';
import type { SvcApi } from './types.js';
import { warn } from './warn.js';

declare global {
  interface Window {
    Svc?: SvcApi;
  }
}

if (window.Svc) {
  warn('widget.js loaded twice; the first copy stays');
} else {
  const script = ownScript();
  const defaults = readScriptDefaults(script);
  setScriptDefaults(defaults);
  // The panel sits next to widget.js, under a name the build derives from its content (cached for good).
  const assets = script?.src ? new URL('.', script.src).href : `${defaults.apiBase ?? ''}/`;
  setPanelSource(() => importPanel(new URL(`widget-assets/${__SVC_PANEL__}`, assets).href));
  window.Svc = { bubble, chatbox, identify, setIdentityTokenProvider, reset, consent };
}
