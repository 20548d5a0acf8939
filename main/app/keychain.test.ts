import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderKeychain, type SafeStorageLike } from './keychain';

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
