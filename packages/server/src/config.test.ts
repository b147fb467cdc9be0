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

describe('the crawler settings SVC_SOURCE_LEASE_MS and SVC_SOURCE_PAGE_TIMEOUT_MS', () => {
  it('default to a 60 s lease and a 15 s page deadline, and refuse values out of range by name', () => {
    expect(loadConfig({})).toMatchObject({ sourceLeaseMs: 60_000, sourcePageTimeoutMs: 15_000 });
    expect(loadConfig({ SVC_SOURCE_LEASE_MS: '2000', SVC_SOURCE_PAGE_TIMEOUT_MS: '1500' })).toMatchObject({ sourceLeaseMs: 2_000, sourcePageTimeoutMs: 1_500 });
    expect(() => loadConfig({ SVC_SOURCE_LEASE_MS: '10' })).toThrow(new ConfigError('SVC_SOURCE_LEASE_MS must be an integer from 1000 to 3600000; got "10".'));
  });
});
