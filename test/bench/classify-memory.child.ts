// Child process for the classify memory benchmark: classifies one generated command and prints its peak
// RSS, so each size is measured in a fresh process. argv: <length in characters> (0: only load the parser).
import { classifyCommand, initClassifier } from '../../main/policy/classifier';
import { TEST_PATHS } from '../support/policy';

await initClassifier();
const length = Number(process.argv[2] ?? '0');
const started = performance.now();
let cls = 'none';
if (length > 0) {
  // Words of one letter: the most nodes per character, the worst case for memory.
  const cmd = ('echo ' + 'a '.repeat(Math.ceil(length / 2))).slice(0, length);
  cls = classifyCommand(cmd, { ctx: TEST_PATHS }).class;
}
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, ms, cls }) + '\n');
