// Built-in program rules carry examples: `match` commands stay at the rule's base class, `notMatch`
// commands are judged more severely: a higher class, the hardline, or a floor effect (secret_read,
// capability_change). They are checked when the classifier loads, so a rule that no longer
// does what it says stops the gate instead of silently misjudging.
//
// Three more checks hold the known-options principle in place:
// - a rule whose base is `read` declares its options (or reads them itself, per subcommand);
// - every option a table marks as judged (!opt, one the rule escalates) appears in a notMatch example;
// - every read `match` example becomes at least write when an unknown option is put after the program
//   name: an option nobody listed is never read-only.
import { classRank } from '../../../common/domain';
import { tableFor } from './args';
import { ShellAnalyzer } from './analyze';
import { PROGRAM_RULES } from './programs';
import type { ProgramRule } from './types';

const EXAMPLE_CONTEXT = { home: '/home/user', workspace: '/home/user/project', appDirs: ['/home/user/.config/threshold'] };

/**
 * Long options whose value is a program, an editor or a pager that runs (GTFOBins' most common shape). No
 * table may list one as a read option: where a program has one, its rule judges it (`!--editor=`) or the
 * option stays unknown, which makes the segment at least write.
 */
export const PROGRAM_OPTION_NAMES: readonly string[] = [
  'editor', 'pager', 'browser', 'viewer', 'with-editor', 'open-files-in-pager', 'extcmd', 'upload-pack', 'receive-pack', 'rsh',
  'rsh-command', 'rmt-command', 'to-command', 'compress-program', 'use-compress-program', 'info-script', 'new-volume-script',
  'checkpoint-action', 'ssh-command', 'proxy-command', 'hostname-bin', 'exec-path', 'askpass', 'password-command',
];

/** An option no program has: put after a program name, it must make a read example at least write. */
export const PROBE_OPTION = '--threshold-probe-unknown-option';

export interface RuleExampleFailure {
  rule: string;
  example: string;
  expected: string;
  actual: string;
}

function tablesOf(rule: ProgramRule): string[] {
  const o = rule.options;
  if (o === undefined) return [];
  return typeof o === 'string' ? [o] : Object.values(o);
}

/** True when a notMatch example uses the option (-i, -i.bak, -ni for a short one; --in-place, --in-place=x). */
function exampleUses(example: string, option: string): boolean {
  const words = example.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
  if (option.startsWith('--') || option.length > 2) return words.some((w) => w === option || w.startsWith(option + '='));
  const letter = option[1]!;
  return words.some((w) => w === option || (w.startsWith('-') && !w.startsWith('--') && w.slice(1).includes(letter) && /^-[A-Za-z0-9]+/.test(w)));
}

export function checkRuleExamples(): RuleExampleFailure[] {
  const failures: RuleExampleFailure[] = [];
  const classify = (cmd: string) => ShellAnalyzer.classify(cmd, { ctx: EXAMPLE_CONTEXT });
  for (const rule of PROGRAM_RULES) {
    const name = rule.names[0]!;
    for (const example of rule.match) {
      const c = classify(example);
      if (c.class !== rule.base) failures.push({ rule: name, example, expected: `class ${rule.base}`, actual: `class ${c.class}` });
    }
    for (const example of rule.notMatch) {
      const c = classify(example);
      const severer = classRank(c.class) > classRank(rule.base) || c.hardline || c.effects.includes('secret_read') || c.effects.includes('capability_change');
      if (!severer) failures.push({ rule: name, example, expected: `more severe than ${rule.base}`, actual: `class ${c.class}, effects ${c.effects.join(',')}` });
    }
    if (rule.base === 'read' && rule.options === undefined && !rule.checksOwnOptions) {
      failures.push({ rule: name, example: '(rule)', expected: 'a table of known options (a read rule must list them)', actual: 'none' });
    }
    const o = rule.options;
    if (o !== undefined && typeof o !== 'string' && !('*' in o)) {
      for (const n of rule.names) if (!(n in o)) failures.push({ rule: name, example: n, expected: `an option table for ${n}`, actual: 'none' });
    }
    for (const text of tablesOf(rule)) {
      const t = tableFor(text);
      for (const n of PROGRAM_OPTION_NAMES) {
        if (t.long.has(n) && !t.judged.includes(`--${n}`) && !t.judged.includes(`-${n}`)) {
          failures.push({ rule: name, example: `--${n}`, expected: 'judged by the rule (!) or not listed: it names a program that runs', actual: 'listed as a read option' });
        }
      }
      for (const judged of t.judged) {
        if (!rule.notMatch.some((e) => exampleUses(e, judged))) {
          failures.push({ rule: name, example: judged, expected: `a notMatch example that uses ${judged} (the rule escalates it)`, actual: 'none' });
        }
      }
    }
    if (rule.base !== 'read') continue;
    for (const example of rule.match) {
      const first = example.split(' ')[0]!;
      if (!rule.names.includes(first)) continue;
      const table = tablesOf(rule).length ? (typeof rule.options === 'string' ? tableFor(rule.options) : tableFor(rule.options![first] ?? rule.options!['*']!)) : null;
      if (table?.data) continue;
      const probe = `${first} ${PROBE_OPTION}${example.slice(first.length)}`;
      const c = classify(probe);
      if (classRank(c.class) < classRank('write')) failures.push({ rule: name, example: probe, expected: 'at least write (an unknown option)', actual: `class ${c.class}` });
    }
  }
  return failures;
}

export function verifyRuleExamples(): void {
  const failures = checkRuleExamples();
  if (failures.length) {
    const list = failures.map((f) => `  ${f.rule}: "${f.example}" expected ${f.expected}, got ${f.actual}`).join('\n');
    throw new Error(`Threshold classifier: ${failures.length} built-in rule example(s) do not hold:\n${list}`);
  }
}
