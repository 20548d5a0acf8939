import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOpener, openOnDesktop } from './open-path';

describe('open_path on the desktop', () => {
  it('tells the file type before opening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-open-'));
    const f = join(dir, 'notes.txt');
    writeFileSync(f, 'hello');
    expect(describeOpener(f).mime).toMatch(/^text\//);
  });
  it('passes the resolved path as one argument to the opener, with only the desktop environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threshold-open-'));
    const fakeOpener = join(dir, 'fake-open');
    const log = join(dir, 'log');
    writeFileSync(fakeOpener, `#!/bin/sh\nprintf '%s|' "$@" > ${log}; env | grep -c SECRET >> ${log}; exit 0\n`);
    chmodSync(fakeOpener, 0o755);
    const r = await openOnDesktop('/home/u/My Report; rm -rf ~.pdf', { opener: [fakeOpener], env: { PATH: '/usr/bin:/bin', DISPLAY: ':0', AWS_SECRET_ACCESS_KEY: 'x' } });
    const { readFileSync } = await import('node:fs');
    expect({ ok: r.ok, log: readFileSync(log, 'utf8') }).toEqual({ ok: true, log: '/home/u/My Report; rm -rf ~.pdf|0\n' });
  });
  it('reports an opener that fails', async () => {
    const r = await openOnDesktop('/nonexistent.pdf', { opener: ['false'] });
    expect(r).toEqual({ ok: false, error: 'false exited with 1' });
  });
});
