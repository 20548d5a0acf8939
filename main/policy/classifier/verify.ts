// Built-in program rules carry examples: `match` commands stay at the rule's base class, `notMatch`
// commands are judged more severely: a higher class, the hardline, or a floor effect (secret_read,
// capability_change). They are checked when the classifier loads, so a rule that no longer
// does what it says stops the gate instead of silently misjudging.
import { classRank } from '../../../common/domain';
import { ShellAnalyzer } from './analyze';
import { PROGRAM_RULES } from './programs';

const EXAMPLE_CONTEXT = { home: '/home/user', workspace: '/home/user/project', appDirs: ['/home/user/.config/threshold'] };

export interface RuleExampleFailure {
  rule: string;
  example: string;
  expected: string;
  actual: string;
}

export function checkRuleExamples(): RuleExampleFailure[] {
  const failures: RuleExampleFailure[] = [];
  for (const rule of PROGRAM_RULES) {
    const name = rule.names[0]!;
    for (const example of rule.match) {
      const c = ShellAnalyzer.classify(example, { ctx: EXAMPLE_CONTEXT });
      if (c.class !== rule.base) failures.push({ rule: name, example, expected: `class ${rule.base}`, actual: `class ${c.class}` });
    }
    for (const example of rule.notMatch) {
      const c = ShellAnalyzer.classify(example, { ctx: EXAMPLE_CONTEXT });
      const severer = classRank(c.class) > classRank(rule.base) || c.hardline || c.effects.includes('secret_read') || c.effects.includes('capability_change');
      if (!severer) failures.push({ rule: name, example, expected: `more severe than ${rule.base}`, actual: `class ${c.class}, effects ${c.effects.join(',')}` });
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
