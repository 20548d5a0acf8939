import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeTokenKeychain, ProviderKeychain, type SafeStorageLike } from './keychain';

// A stand-in for the OS encryption service (the outside boundary): reversible, but not plain text.
const fakeSafe = (available = true): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  encryptString: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
  decryptString: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
});

describe('the provider keychain', () => {
  it('stores a key encrypted, readable only by the owner, and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-keychain-'));
    const k = new ProviderKeychain(dir, fakeSafe());
    expect(k.read()).toBeNull();
    expect(k.write('sk-ant-test-123')).toEqual({ ok: true, value: { stored: true } });
    expect(readFileSync(k.file).toString('utf8')).not.toContain('sk-ant-test-123');
    expect(statSync(k.file).mode & 0o777).toBe(0o600);
    expect(k.read()).toBe('sk-ant-test-123');
    k.clear();
    expect(k.read()).toBeNull();
  });

  it('refuses to store a key when the OS offers no encryption, rather than writing it in plain text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-keychain-'));
    const k = new ProviderKeychain(dir, fakeSafe(false));
    expect(k.write('sk-test')).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    expect(k.read()).toBeNull();
  });
});

describe('the chat bridges\' tokens in the keychain', () => {
  it('keeps each bridge apart, encrypted, owner-only, and never beside the provider key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-keychain-'));
    const k = new BridgeTokenKeychain(dir, fakeSafe());
    const provider = new ProviderKeychain(dir, fakeSafe());
    expect(k.write('telegram', '123456:ABC-telegram-token')).toEqual({ ok: true, value: { stored: true } });
    expect({ telegram: k.read('telegram'), matrix: k.read('matrix'), provider: provider.read(), plain: readFileSync(join(dir, 'telegram-token.enc')).toString('utf8').includes('ABC-telegram'), mode: statSync(join(dir, 'telegram-token.enc')).mode & 0o777 }).toEqual({ telegram: '123456:ABC-telegram-token', matrix: null, provider: null, plain: false, mode: 0o600 });
  });

  it('refuses without OS encryption and names the environment variable to use instead', () => {
    const k = new BridgeTokenKeychain(mkdtempSync(join(tmpdir(), 'threshold-keychain-')), fakeSafe(false));
    expect(k.write('matrix', 'syt_token')).toMatchObject({ ok: false, error: { code: 'keychain_unavailable', message: expect.stringMatching(/\[remote.matrix\] access_token_env/) } });
  });
});
