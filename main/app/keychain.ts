// The provider's API key in the OS keychain, through Electron's safeStorage (injected, so this is tested
// without Electron): encrypted by the OS in a file of the app's data directory, never in the database.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../common/contract';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export class ProviderKeychain {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly safe: SafeStorageLike,
    fileName = 'provider-key.enc',
    private readonly instead = 'Set it in the environment variable named by [provider] api_key_env instead.',
  ) {
    this.file = join(dataDir, fileName);
  }

  /** The stored key, or null when none is stored or the OS cannot decrypt it (then the environment is used). */
  read(): string | null {
    if (!existsSync(this.file) || !this.safe.isEncryptionAvailable()) return null;
    try {
      const key = this.safe.decryptString(readFileSync(this.file));
      return key || null;
    } catch {
      return null;
    }
  }

  /** Stores a key; refuses (never falls back to plain text) when the OS offers no encryption. */
  write(key: string): Result<{ stored: true }> {
    if (!this.safe.isEncryptionAvailable()) {
      return { ok: false, error: { code: 'keychain_unavailable', message: `The OS keychain is not available, so the key was not stored. ${this.instead}` } };
    }
    writeFileSync(this.file, this.safe.encryptString(key), { mode: 0o600 });
    return { ok: true, value: { stored: true } };
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }
}

/** Chat bridges' tokens (docs/remote.md), one encrypted file each, as the provider's key is kept. */
export class BridgeTokenKeychain {
  private readonly files: Record<'telegram' | 'matrix', ProviderKeychain>;

  constructor(dataDir: string, safe: SafeStorageLike) {
    this.files = {
      telegram: new ProviderKeychain(dataDir, safe, 'telegram-token.enc', 'Set it in the environment variable named by [remote.telegram] bot_token_env instead.'),
      matrix: new ProviderKeychain(dataDir, safe, 'matrix-token.enc', 'Set it in the environment variable named by [remote.matrix] access_token_env instead.'),
    };
  }

  read(bridge: 'telegram' | 'matrix'): string | null {
    return this.files[bridge].read();
  }

  write(bridge: 'telegram' | 'matrix', token: string): Result<{ stored: true }> {
    return this.files[bridge].write(token);
  }
}
