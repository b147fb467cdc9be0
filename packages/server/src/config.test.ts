import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('SVC_ALLOW_PRIVATE_URLS and its older name SVC_ALLOW_PRIVATE_CALLBACKS', () => {
  const allow = (env: NodeJS.ProcessEnv) => {
    const config = loadConfig(env);
    return [config.allowPrivateUrls, config.allowPrivateCallbacks];
  };

  it('refuses private addresses by default and allows them with either name', () => {
    expect(allow({})).toEqual([false, false]);
    expect(allow({ SVC_ALLOW_PRIVATE_URLS: 'true' })).toEqual([true, true]);
    expect(allow({ SVC_ALLOW_PRIVATE_CALLBACKS: 'true' })).toEqual([true, true]);
  });

  it('lets the new name decide when both are set', () => {
    expect(allow({ SVC_ALLOW_PRIVATE_URLS: 'false', SVC_ALLOW_PRIVATE_CALLBACKS: 'true' })).toEqual([false, false]);
    expect(allow({ SVC_ALLOW_PRIVATE_URLS: '', SVC_ALLOW_PRIVATE_CALLBACKS: 'yes' })).toEqual([true, true]);
  });

  it('names the variable of a bad value, and keeps both settings equal when overridden', () => {
    expect(() => loadConfig({ SVC_ALLOW_PRIVATE_URLS: 'maybe' })).toThrow(new ConfigError('SVC_ALLOW_PRIVATE_URLS must be true or false; got "maybe".'));
    const overridden = loadConfig({}, { allowPrivateCallbacks: true });
    expect([overridden.allowPrivateUrls, overridden.allowPrivateCallbacks]).toEqual([true, true]);
  });
});
