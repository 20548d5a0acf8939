import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberedWebPort, rememberWebPort, webPortPath } from './port';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'threshold-port-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the web UI's port, kept per data directory", () => {
  it.each([
    ['a remembered port', '43125\n', 43125],
    ['no file yet', null, null],
    ['a privileged port (never remembered)', '80\n', null],
    ['a number past the last port', '70000\n', null],
    ['text that is not a port', 'http://127.0.0.1:43125\n', null],
    ['a port and more', '43125 43126\n', null],
  ])('reads %s', (_name, text, expected) => {
    const d = dataDir();
    if (text !== null) writeFileSync(webPortPath(d), text);
    expect(rememberedWebPort(d)).toEqual(expected);
  });

  it('writes the port alone, private to the user, and reads it back', () => {
    const d = dataDir();
    rememberWebPort(d, 51234);
    expect({ text: readFileSync(webPortPath(d), 'utf8'), mode: statSync(webPortPath(d)).mode & 0o777, back: rememberedWebPort(d) }).toEqual({ text: '51234\n', mode: 0o600, back: 51234 });
  });
});
