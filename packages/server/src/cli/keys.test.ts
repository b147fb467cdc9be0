import { describe, expect, it } from 'vitest';
import { ANY_ACCOUNT, createMemoryStore, isSvcError, views } from '@svc/core';
import { makeApiKey, makeDelivery } from '@svc/core/testing';
import { operatorAdmin } from './operator-admin.js';

async function refusal(callbackUrl: string, allowPrivateCallbacks = false): Promise<string | undefined> {
  const admin = operatorAdmin(createMemoryStore(), { allowPrivateCallbacks });
  const account = await admin.createAccount({ name: 'A' });
  try {
    await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'], callbackUrl });
  } catch (error) {
    if (isSvcError(error)) return error.field;
    throw error;
  }
  return undefined;
}

describe('server keys with callback URLs', () => {
  it.each(['http://hooks.example.com/svc', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://[::1]/hook', 'https://169.254.169.254/latest', 'https://localhost/hook', 'ftp://x.example', 'not a url'])(
    'refuses %s',
    async (url) => {
      expect(await refusal(url)).toBe('callbackUrl');
    },
  );

  it.each(['https://user:pass@hooks.example.com/svc', 'https://localhost./hook', 'https://[::127.0.0.1]/hook', 'https://[::ffff:0:7f00:1]/hook', 'https://[64:ff9b:1::1]/hook', 'https://[2002:a00:1::]/hook', 'https://[fec0::1]/hook'])(
    'refuses %s under the default policy (issue 10: credentials, trailing dots and embedded private IPv4 were accepted)',
    async (url) => {
      expect(await refusal(url)).toBe('callbackUrl');
    },
  );

  it.each(['https://8.8.8.8/cb', 'https://1.1.1.1:8443/cb', 'https://[2606:4700:4700::1111]/cb', 'https://[2001:4860:4860::8888]/cb'])(
    'accepts the public address %s under the default policy (issue 10: every IPv4 address was refused)',
    async (url) => {
      expect(await refusal(url)).toBeUndefined();
    },
  );

  it('never lists the password of a callback URL saved before credentials were refused (issue 10)', () => {
    const legacy = 'https://hooks:s3cret-pass@hooks.example.com/svc';
    expect(JSON.stringify(views.key(makeApiKey({ callbackUrl: legacy })))).not.toContain('s3cret-pass');
    expect(views.key(makeApiKey({ callbackUrl: legacy })).callbackUrl).toBe('https://***@hooks.example.com/svc');
    expect(JSON.stringify(views.delivery(makeDelivery({ url: legacy })))).not.toContain('s3cret-pass');
    expect(views.key(makeApiKey({ callbackUrl: 'https://hooks.example.com/svc' })).callbackUrl).toBe('https://hooks.example.com/svc');
  });

  it('accepts public https URLs, and private ones only when allowed', async () => {
    expect(await refusal('https://hooks.example.com/svc')).toBeUndefined();
    expect(await refusal('http://127.0.0.1:8080/hook', true)).toBeUndefined();
  });

  it('shows a callback secret of at least 32 random bytes once, stores it for signing, and rotates it', async () => {
    const store = createMemoryStore();
    const admin = operatorAdmin(store);
    const account = await admin.createAccount({ name: 'A' });
    const created = await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'], callbackUrl: 'https://hooks.example.com/svc' });
    expect(created.callbackSecret).toMatch(/^whsec_[0-9A-Za-z+/]{43}=$/);
    expect(created.key).toMatch(/^sk_live_/);
    const stored = await store.getApiKey(created.apiKey.id);
    expect(stored!.hash).not.toBe(created.key);
    expect(JSON.stringify(stored)).not.toContain(created.key);
    const rotated = await admin.rotateCallbackSecret(ANY_ACCOUNT, created.apiKey.id);
    expect(rotated.callbackSecret).not.toBe(created.callbackSecret);
    expect((await store.getApiKey(created.apiKey.id))!.callbackSecret).toBe(rotated.callbackSecret);
  });
});
