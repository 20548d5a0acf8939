// The packaging config, checked offline as far as it goes: electron-builder's own loader and schema
// validator (the ones `electron-builder` runs first), the Electron it would package, and what we rely
// on. Building the installers needs Electron's download (docs/install.md): not possible here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli';

const require = createRequire(import.meta.url);
type Config = Record<string, unknown> & { linux?: Record<string, unknown>; mac?: Record<string, unknown>; win?: Record<string, unknown>; deb?: { depends?: string[] } };
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(dir: string, path: string | null, options: null): Promise<Config>;
  validateConfiguration(c: Config, logger: unknown): Promise<void>;
};
const { getElectronVersion } = require('app-builder-lib/out/electron/electronVersion') as { getElectronVersion(dir: string): Promise<string> };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const load = () => getConfig(ROOT, null, null);
const validate = (c: Config) => validateConfiguration(c, new DebugLogger(false));

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own validation', async () => {
    await expect(validate(await load())).resolves.toBeUndefined();
  });

  it('the validator is real: an unknown key is refused', async () => {
    await expect(validate({ ...(await load()), linux: { target: ['AppImage'], notAnOption: true } })).rejects.toThrow(/configuration\.linux/);
  });

  it('makes AppImage and deb, dmg for both Mac architectures, and an NSIS installer', async () => {
    const c = await load();
    expect({ linux: c.linux?.target, mac: c.mac?.target, win: c.win?.target }).toEqual({
      linux: ['AppImage', 'deb'],
      mac: [{ target: 'dmg', arch: ['x64', 'arm64'] }],
      win: ['nsis'],
    });
  });

  it('rebuilds the native modules for Electron while packaging and keeps them, and the WASM, out of the asar', async () => {
    const c = await load();
    expect({ npmRebuild: c['npmRebuild'], asarUnpack: c['asarUnpack'] }).toEqual({
      npmRebuild: true,
      asarUnpack: ['node_modules/better-sqlite3/**', 'node_modules/node-pty/**', 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'node_modules/web-tree-sitter/web-tree-sitter.wasm'],
    });
  });

  it('packages the Electron that package.json pins, starting the bundle package.json names', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; devDependencies: Record<string, string> };
    expect({ electron: await getElectronVersion(ROOT), main: pkg.main }).toEqual({ electron: pkg.devDependencies['electron'], main: 'out/main/index.js' });
  });

  it('packs the core beside the shell: the command line’s bundle and the manifest naming it (the shell starts it with Electron as Node)', async () => {
    // The loader turns the list into file sets ({ filter: [...] }).
    const files = ((await load())['files'] as ({ filter?: string[] } | string)[]).flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])));
    expect(files.filter((f) => f.startsWith('out/'))).toEqual(['out/main/**', 'out/preload/**', 'out/renderer/**', 'out/cli.json', 'out/cli-*/**']);
  });

  it('the deb pulls in what the jail and the agent’s tools run', async () => {
    expect((await load()).deb?.depends?.filter((d) => ['bubblewrap', 'git', 'ripgrep'].includes(d))).toEqual(['bubblewrap', 'git', 'ripgrep']);
  });
});
