// Properties of the policy, checked over generated commands (fast-check): what must hold for every
// call, not only the ones a table names.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { classRank, decisionRank, EFFECTS, LEVELS, type Effect, type Grant } from '../../common/domain';
import { grant, policyContext, TEST_PATHS } from '../../test/support/policy';
import { classifyCommand, initClassifier } from './classifier';
import { decide, type PolicyContext } from './evaluate';
import { coverCall } from './grants';
import { describeCall, type CallFacts } from './tools';

beforeAll(async () => {
  await initClassifier();
});

const RUNS = { numRuns: 1000 };

// Segments from every class, with the shapes that matter: flags, paths inside and outside the
// workspace, credentials, substitutions, redirections, interpreters, unknown programs.
const SEGMENTS = [
  'ls',
  'ls -la src',
  'cat README.md',
  'cat ~/.ssh/id_rsa',
  'echo hi',
  'echo x > out.txt',
  'wc -l README.md',
  'grep -r TODO .',
  'find . -name "*.ts"',
  'head -n 3 notes.md',
  'sort data.csv',
  'touch a.txt',
  'mkdir -p build',
  'cp a.txt b.txt',
  'cp a.txt ../elsewhere/',
  'mv a.txt /tmp/a.txt',
  'sed -i s/a/b/ notes.md',
  'chmod +x run.sh',
  'rm a.txt',
  'rm -rf build',
  'rm -rf ~',
  'git status',
  'git log --oneline',
  'git commit -m wip',
  'git push',
  'git push --force',
  'curl https://example.com',
  'wget https://example.com/file',
  'npm install left-pad',
  'pip install requests',
  'python3 -c "print(1)"',
  'bash -c "ls"',
  './build.sh',
  'make',
  'echo $(id)',
  'sudo ls',
  'dd if=/dev/zero of=disk.img',
];
const OPERATORS = ['; ', ' && ', ' || ', ' | '];

const segment = fc.constantFrom(...SEGMENTS);
const command = fc.tuple(segment, fc.array(fc.tuple(fc.constantFrom(...OPERATORS), segment), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([op, s]) => op + s).join(''));

function factsOf(cmd: string): CallFacts {
  const d = describeCall('run_command', { command: cmd }, { ctx: TEST_PATHS });
  if (!d.ok) throw new Error(d.message);
  return d.facts;
}

const rank = (f: CallFacts, ctx: PolicyContext) => decisionRank(decide(f, ctx).decision);

describe('policy properties', () => {
  it('a stricter level never allows more', () => {
    fc.assert(
      fc.property(command, fc.integer({ min: 0, max: LEVELS.length - 2 }), (cmd, i) => {
        const f = factsOf(cmd);
        const stricter = policyContext({ level: LEVELS[i]! });
        const looser = policyContext({ level: LEVELS[i + 1]! });
        // allow < ask < deny: the stricter level's decision is never the looser one's.
        expect(rank(f, stricter)).toBeGreaterThanOrEqual(rank(f, looser));
      }),
      RUNS,
    );
  });

  it('adding a deny rule never allows more', () => {
    const rule = fc.oneof(
      fc.constantFrom(...EFFECTS).map((e) => ({ effects: { [e]: 'deny' as const } as Partial<Record<Effect, 'deny'>>, tools: {} })),
      fc.constant({ effects: {}, tools: { run_command: 'deny' as const } }),
    );
    fc.assert(
      fc.property(command, fc.constantFrom(...LEVELS), rule, (cmd, level, rules) => {
        const f = factsOf(cmd);
        expect(rank(f, policyContext({ level, rules }))).toBeGreaterThanOrEqual(rank(f, policyContext({ level })));
      }),
      RUNS,
    );
  });

  it('a grant never covers a command with an extra segment it does not name', () => {
    fc.assert(
      fc.property(segment, fc.constantFrom(...OPERATORS), segment, (covered, op, extra) => {
        const facts = factsOf(covered);
        const extraFacts = factsOf(extra);
        // A grant made of exactly the first command's argv (what approve_always would propose).
        const grants: Grant[] = facts.segments.map((s) => grant('run_command', { kind: 'argv', argv: s.argv }));
        fc.pre(facts.segments.length === 1 && coverCall(facts, grants, TEST_PATHS, { now: 0, sessionId: 's1' }).covered);
        fc.pre(!coverCall(extraFacts, grants, TEST_PATHS, { now: 0, sessionId: 's1' }).covered);
        const combined = factsOf(covered + op + extra);
        expect(coverCall(combined, grants, TEST_PATHS, { now: 0, sessionId: 's1' }).covered).toBe(false);
        expect(decide(combined, policyContext({ grants })).decider.kind).not.toBe('grant');
      }),
      RUNS,
    );
  });

  it('the class of `a; b` is at least that of `a` and of `b`', () => {
    fc.assert(
      fc.property(command, fc.constantFrom(...OPERATORS), command, (a, op, b) => {
        const c = (cmd: string) => classifyCommand(cmd, { ctx: TEST_PATHS });
        const both = classRank(c(a + op + b).class);
        expect(both).toBeGreaterThanOrEqual(Math.max(classRank(c(a).class), classRank(c(b).class)));
      }),
      RUNS,
    );
  });
});
