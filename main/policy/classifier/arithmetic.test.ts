// Arithmetic over data runs the code an array subscript in the data holds. Each case is classified and
// then run by the real bash, in a folder whose file `f` holds a[$(touch ran)] (and, for the glob, a
// file of that name): a case the classifier calls read must not create `ran`, and each write case
// shows bash really runs the data's code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PATHS } from '../../../test/support/policy';
import { classifyCommand, initClassifier } from './index';

beforeAll(async () => {
  await initClassifier();
});

const PAYLOAD = 'a[$(touch ran)]';
let dir: string | null = null;

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Runs the command in bash over the payload; true when the payload's code ran. */
function bashRanThePayload(cmd: string): boolean {
  dir = mkdtempSync(join(tmpdir(), 'arith-'));
  writeFileSync(join(dir, 'f'), `${PAYLOAD}\n`);
  writeFileSync(join(dir, PAYLOAD), '');
  spawnSync('bash', ['--norc', '--noprofile', '-c', cmd], { cwd: dir, input: `${PAYLOAD}\n`, timeout: 5000, stdio: ['pipe', 'ignore', 'ignore'] });
  return existsSync(join(dir, 'ran'));
}

const arithmeticReasons = (cmd: string) => classifyCommand(cmd, { ctx: TEST_PATHS }).reasons.filter((r) => r.startsWith('arithmetic evaluates'));

describe('arithmetic over a value only the run knows is not read: bash runs the subscript in it', () => {
  it.each([
    { how: '$((x)) of a variable set by read', cmd: 'read x < f; echo $((x))' },
    { how: '$((x)) of a variable set from a substitution', cmd: 'x=$(cat f); echo $((x))' },
    { how: 'a variable copied from such a variable', cmd: 'y=$(cat f); x=$y; echo $((x))' },
    { how: "a substitution's output inside $(( ))", cmd: 'echo $(( $(cat f) ))' },
    { how: "a substitution's output inside $[ ]", cmd: 'echo $[ $(cat f) ]' },
    { how: 'the (( )) command', cmd: 'read x < f; (( x ))' },
    { how: '[[ $x -eq 0 ]]', cmd: 'read x < f; [[ $x -eq 0 ]]' },
    { how: '[[ x -lt 1 ]] with a bare name', cmd: 'read x < f; [[ x -lt 1 ]]' },
    { how: 'let', cmd: 'read x < f; let y=x' },
    { how: 'a substring offset ${s:x}', cmd: 'read x < f; s=abc; echo ${s:x}' },
    { how: 'the condition of for (( ))', cmd: 'read x < f; for ((i=0;i<x;i++)); do :; done' },
    { how: 'a quoted $(( "$x" ))', cmd: 'read x < f; echo $(( "$x" ))' },
    { how: 'declare -i', cmd: 'read x < f; declare -i y=x' },
    { how: 'a file name from a glob', cmd: 'for v in *; do echo $((v)); done' },
    { how: 'standard input read in a loop', cmd: 'while read -r n; do echo $((n + 1)); done' },
    { how: 'code carried by bash -c', cmd: "bash -c 'read x < f; echo $((x))'" },
  ])('$how: $cmd', ({ cmd }) => {
    const c = classifyCommand(cmd, { ctx: TEST_PATHS });
    expect({ class: c.class, reasons: arithmeticReasons(cmd).length > 0, bashRan: bashRanThePayload(cmd) }).toEqual({ class: 'write', reasons: true, bashRan: true });
  });
});

describe('arithmetic over values the command spells out, or counts, stays read', () => {
  it.each([
    { how: 'constants', cmd: 'echo $((1 + 2))' },
    { how: 'a loop counter the command sets', cmd: 'for ((i=0;i<3;i++)); do echo $i; done' },
    { how: 'a literal number', cmd: 'x=5; echo $((x + 1))' },
    { how: 'a count from wc reading a file', cmd: 'echo $(( $(wc -l < f) + 1 ))' },
    { how: 'a count from wc at the end of a pipeline', cmd: 'echo $(( $(cat f | wc -l) * 2 ))' },
    { how: 'a variable holding a count', cmd: 'n=$(wc -l < f); echo $((n + 1))' },
    { how: 'nproc', cmd: 'echo $(( $(nproc) * 2 ))' },
    { how: 'a literal loop list', cmd: 'for v in 1 2; do echo $((v)); done' },
    { how: 'a default value, not an offset', cmd: 'read x < f; echo ${s:-x}' },
    { how: 'test -eq, which wants integers and evaluates nothing', cmd: 'read x < f; [ "$x" -eq 1 ]' },
    { how: 'a value read and only printed', cmd: 'read x < f; echo "$x"' },
  ])('$how: $cmd', ({ cmd }) => {
    expect({ reasons: arithmeticReasons(cmd), bashRan: bashRanThePayload(cmd) }).toEqual({ reasons: [], bashRan: false });
  });
});
