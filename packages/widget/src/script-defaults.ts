import { baseUrl, validateConnection } from './config-validation.js';
import { endpointProvider } from './identity-endpoint.js';
import type { ScriptDefaults } from './sdk.js';

/** `currentScript` is set while a classic script runs (async included); the query covers unusual loaders. */
export function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  return current instanceof HTMLScriptElement ? current : document.querySelector('script[src*="widget.js"][data-api-key]');
}

/**
 * The script tag's settings: `data-api-key`, `data-api-base` and `data-identity-endpoint`. The API defaults to
 * the folder widget.js was loaded from, which is the service's origin for `/widget.js`.
 */
export function readScriptDefaults(script: HTMLScriptElement | null): ScriptDefaults {
  const { apiKey, apiBase, identityEndpoint } = script?.dataset ?? {};
  const valid = validateConnection({ apiKey, apiBase }, 'script tag');
  return {
    apiKey: valid.apiKey,
    apiBase: valid.apiBase ?? (script?.src ? baseUrl(new URL('.', script.src).href) : undefined),
    identityEndpoint: identityEndpoint ? (endpointProvider(identityEndpoint) ?? undefined) : undefined,
  };
}
