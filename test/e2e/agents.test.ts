// What a person sees of another agent's calls, in Chromium against a real daemon: Claude Code's session
// in the sidebar with its card, History naming who asked, and Settings → Grants filtered by who a grant
// came from (an approval of Claude Code's card, an import), at a phone's width and a desktop's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT } from '../support/cli';
import { axeProblems, fixture, launch, shot, startWeb, until, type Fixture, type WebDaemon } from './support';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let f: Fixture;
let w: WebDaemon;
let browser: Browser;
const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'threshold.js'), ...args], { encoding: 'utf8', env: { ...process.env, HOME: f.home, THRESHOLD_CONFIG_DIR: join(f.home, '.config', 'threshold') } });

/** Claude Code's hook, as Claude Code runs it, for one Bash call; resolves with what it printed. */
function claudeHook(command: string): Promise<string> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'hook', 'claude-code', '--data-dir', f.dataDir], { env: { ...process.env, CLAUDE_PROJECT_DIR: f.workspace }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', () => resolve(out));
    c.stdin.end(JSON.stringify({ session_id: '0a1b2c3d-claude', cwd: f.workspace, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: 'toolu_1' }));
  });
}

beforeAll(async () => {
  f = fixture(null);
  w = await startWeb(f);
  browser = await launch();
  // Claude Code's own rules, imported: one becomes a grant.
  mkdirSync(join(f.workspace, '.claude'), { recursive: true });
  writeFileSync(join(f.workspace, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm run test:*)'] } }));
  const imported = cli('import', 'claude-code', join(f.workspace, '.claude', 'settings.json'), '--data-dir', f.dataDir);
  expect(imported.status, imported.stderr).toBe(0);
});
afterAll(async () => {
  await browser?.close();
  await w?.daemon.kill('SIGTERM');
});

describe("another agent's calls in the window", () => {
  it.each([1280, 400])("at %i px: Claude Code's session holds its card; approved always, the grant says who asked and the filter finds it", async (width) => {
    const answer = claudeHook(`make build-${width}`);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(w.url);
    await page.getByRole('button', { name: /Claude Code in ~\/project/ }).first().click();
    const region = page.getByRole('region', { name: 'Approval request: run_command' }).filter({ hasText: `make build-${width}` });
    await until('the card', async () => (await region.count()) > 0);
    await shot(page, `agents-card-${width}`);
    expect(await axeProblems(page)).toEqual([]);
    const pending = JSON.parse(cli('ctl', '--data-dir', f.dataDir, '--json', 'pending').stdout) as { id: string; args: { command: string } }[];
    const mine = pending.find((p) => p.args.command === `make build-${width}`)!;
    expect(cli('ctl', '--data-dir', f.dataDir, 'decide', mine.id, 'approve_always').status).toBe(0);
    expect(JSON.parse(await answer).hookSpecificOutput.permissionDecision).toBe('allow');

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.locator('.call-row', { hasText: `make build-${width}` });
    await until('the history row', async () => (await row.count()) > 0);
    expect(await row.first().textContent()).toMatch(/Claude Code: make build/);
    await shot(page, `agents-history-${width}`);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Grants' }).click();
    const madeBy = page.getByRole('combobox', { name: /Made by/ });
    await madeBy.selectOption('Claude Code');
    const rows = page.locator('table.grants tbody tr.grant');
    await until('the filtered grants', async () => (await rows.count()) > 0);
    expect(await rows.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`make.*build-${width}.*asked by Claude Code`))]));
    expect((await rows.allTextContents()).some((t) => t.includes('npm run test'))).toBe(false);
    await madeBy.selectOption('Imported');
    await until('the imported grant', async () => (await rows.allTextContents()).some((t) => /npm run test/.test(t) && /imported from .*settings\.json: Bash\(npm run test:\*\)/.test(t)));
    await shot(page, `agents-grants-${width}`);
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });
});
