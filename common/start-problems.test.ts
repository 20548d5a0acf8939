import { describe, expect, it } from 'vitest';
import { nativeModuleMismatch } from './start-problems';

// Node's own message (src/node_binding.cc), and Electron's variant of it.
const nodeSays = (file: string, built: number, needs: number, who = 'Node.js') =>
  `Error: The module '${file}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${built}. This version of ${who} requires\nNODE_MODULE_VERSION ${needs}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`;

describe('a native module built for another runtime', () => {
  it.each([
    [
      'better-sqlite3 rebuilt for Electron, loaded by the Node of a checkout',
      nodeSays('/home/ada/threshold/node_modules/better-sqlite3/build/Release/better_sqlite3.node', 150, 115),
      { kind: 'node', version: '20.19.2' } as const,
      'The native module better-sqlite3 was built for another runtime (NODE_MODULE_VERSION 150), but the core runs on Node 20.19.2, which needs NODE_MODULE_VERSION 115: run npm rebuild in /home/ada/threshold with that Node (it rebuilds better-sqlite3 and node-pty for it), then start Threshold again.',
    ],
    [
      'node-pty built for Node inside a package run by Electron',
      nodeSays('/opt/Threshold/resources/app.asar.unpacked/node_modules/node-pty/build/Release/pty.node', 115, 150, 'Electron'),
      { kind: 'electron', version: '45.5.0' } as const,
      'The native module node-pty was built for another runtime (NODE_MODULE_VERSION 115), but the core runs on Electron 45.5.0, which needs NODE_MODULE_VERSION 150: reinstall Threshold: its package must carry the native modules electron-builder rebuilt for its own Electron.',
    ],
    [
      'a scoped package, wrapped in the store’s own error',
      `Cannot open the database /d/threshold.db: ${nodeSays('/w/node_modules/@scope/addon/x.node', 127, 115)}`,
      { kind: 'node', version: null } as const,
      'The native module @scope/addon was built for another runtime (NODE_MODULE_VERSION 127), but the core runs on Node, which needs NODE_MODULE_VERSION 115: run npm rebuild in /w with that Node (it rebuilds better-sqlite3 and node-pty for it), then start Threshold again.',
    ],
  ])('%s: one sentence naming the fix', (_name, message, runtime, sentence) => {
    expect(nativeModuleMismatch(message, runtime)).toEqual(sentence);
  });

  it.each([
    ['a module that is missing', "Cannot find module 'better-sqlite3'"],
    ['another load error', "Error: /x/node_modules/a/b.node: invalid ELF header"],
    ['a config error that mentions the words', 'NODE_MODULE_VERSION is not a config key'],
  ])('%s is not taken for one', (_name, message) => {
    expect(nativeModuleMismatch(message, { kind: 'node', version: '20' })).toBeNull();
  });
});
