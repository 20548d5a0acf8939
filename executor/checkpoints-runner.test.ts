// The checkpoints' command runner: argv runs as given (never as shell text), in the directory and with
// the environment asked for, and each answer reaches the request it belongs to.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandRunner } from './checkpoints-runner';

const runner = new CommandRunner();
afterAll(() => runner.dispose());
const dir = mkdtempSync(join(tmpdir(), 'threshold-runner-'));

describe('the checkpoints command runner', () => {
  it.each<{ name: string; argv: string[]; env: Record<string, string>; input: string | undefined; want: { code: number; stdout: string; stderr: string } }>([
    { name: 'prints its arguments as given', argv: ['printf', '%s|', 'a b', '$(touch x)', '*', ''], env: {}, input: undefined, want: { code: 0, stdout: 'a b|$(touch x)|*||', stderr: '' } },
    { name: 'sees the environment asked for', argv: ['bash', '--norc', '-c', 'printf %s "$GIT_INDEX_FILE"'], env: { GIT_INDEX_FILE: '/x/index' }, input: undefined, want: { code: 0, stdout: '/x/index', stderr: '' } },
    { name: 'reads the input it is given', argv: ['cat'], env: {}, input: 'a\0b\n', want: { code: 0, stdout: 'a\0b\n', stderr: '' } },
    { name: 'reports the exit status and stderr', argv: ['bash', '--norc', '-c', 'echo no >&2; exit 3'], env: {}, input: undefined, want: { code: 3, stdout: '', stderr: 'no\n' } },
    { name: 'keeps newlines and empty values in arguments and the environment', argv: ['bash', '--norc', '-c', 'printf "%s|%s|%s" "$1" "$2" "$V"', '-', 'a\nb', ''], env: { V: 'x\ny' }, input: undefined, want: { code: 0, stdout: 'a\nb||x\ny', stderr: '' } },
    { name: 'runs in the directory asked for', argv: ['pwd'], env: {}, input: undefined, want: { code: 0, stdout: `${dir}\n`, stderr: '' } },
  ])('$name', async ({ argv, env, input, want }) => {
    expect(await runner.run(argv, { cwd: dir, env, ...(input !== undefined ? { input } : {}) })).toEqual(want);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it('answers requests running side by side to their own callers', async () => {
    const outs = await Promise.all([30, 0, 20, 10].map((ms, i) => runner.run(['bash', '--norc', '-c', `sleep 0.${ms}; printf ${i}`], { cwd: dir, env: {} })));
    expect(outs.map((o) => o.stdout)).toEqual(['0', '1', '2', '3']);
  });

  it('refuses an argument holding a NUL byte (it would split into two arguments)', async () => {
    await expect(runner.run(['printf', 'a\0b'], { cwd: dir, env: {} })).rejects.toThrow(/NUL/);
  });

  it('starts again after its shell was killed', async () => {
    runner.dispose();
    expect(await runner.run(['printf', 'back'], { cwd: dir, env: {} })).toEqual({ code: 0, stdout: 'back', stderr: '' });
  });
});
