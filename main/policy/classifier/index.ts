// The shell classifier: what a command can do, segment by segment, and why.
import type { PathContext } from '../paths';
import { ShellAnalyzer } from './analyze';
import { initShellParser } from './parser';
import type { ReadText } from './network/types';
import type { Classification } from './types';
import { verifyRuleExamples } from './verify';

export type { Classification, Segment, RedirectInfo } from './types';
export type { HostTarget, NetworkUse, ReadText } from './network/types';
export { initShellParser } from './parser';
export { INTERPRETER_NAMES } from './analyze';

export interface ClassifyOptions {
  ctx: PathContext;
  /** The directory the command runs in (the workspace when not given). */
  cwd?: string;
  /** Reads the files that name git remotes, registries and ssh aliases (network commands only); without it those hosts are unknown. */
  readText?: ReadText;
}

/** Classifies a shell command. initClassifier() must have completed. Never throws on bad input. */
export function classifyCommand(command: string, opts: ClassifyOptions): Classification {
  return ShellAnalyzer.classify(command, opts);
}

// The CLI bundle (bin/cli-bundle.js) defines this as true: its build checked every example with the same
// code and parser before the bundle could run, so it skips the check at each start.
declare const THRESHOLD_RULE_EXAMPLES_VERIFIED: boolean | undefined;
let verified = typeof THRESHOLD_RULE_EXAMPLES_VERIFIED !== 'undefined' && THRESHOLD_RULE_EXAMPLES_VERIFIED;

/** Loads the parser and checks every built-in rule's examples (once per process). */
export async function initClassifier(): Promise<void> {
  await initShellParser();
  if (!verified) {
    verifyRuleExamples();
    verified = true;
  }
}
