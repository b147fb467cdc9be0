import { baseUrl, validateConnection } from './config-validation.js';
import { sameOriginEndpoint } from './identity-endpoint.js';
import type { ScriptDefaults } from './sdk.js';

/** `currentScript` is set while a classic script runs (async included); the query covers unusual loaders. */
export function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  return current instanceof HTMLScriptElement ? current : document.querySelector('script[src*="widget.js"][data-api-key]');
}

/**
 * The script tag's settings: `data-api-key`, `data-api-base`, `data-identity-endpoint` and `data-consent`. The API defaults to
 * the folder widget.js was loaded from, which is the service's origin for `/widget.js`.
 */
export function readScriptDefaults(script: HTMLScriptElement | null): ScriptDefaults {
  const { apiKey, apiBase, identityEndpoint, consent } = script?.dataset ?? {};
  const valid = validateConnection({ apiKey, apiBase }, 'script tag');
  return {
    apiKey: valid.apiKey,
    apiBase: valid.apiBase ?? (script?.src ? baseUrl(new URL('.', script.src).href) : undefined),
    identityEndpoint: identityEndpoint ? sameOriginEndpoint(identityEndpoint) : undefined,
    consentRequired: consent === 'required',
  };
}
