// Run by the CLI build (bin/cli-bundle.js) on each new bundle before it becomes current: the bundle skips
// checking the classifier's rule examples at start because its build checked them, with the same code and
// parser. A rule that does not hold fails the build, and the previous bundle stays in use.
import { initShellParser } from '../policy/classifier';
import { verifyRuleExamples } from '../policy/classifier/verify';

export async function verifyBuiltinRules(): Promise<void> {
  await initShellParser();
  verifyRuleExamples();
}
