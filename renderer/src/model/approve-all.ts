// The words of "Approve all for this session": what it lets run without asking, and what it never
// covers (the gate's rules: main/gate/proposals.ts offers approve-all on no floor and no call that
// could not be analysed; main/gate/gate.ts never applies it to an unattended turn; questions and
// sandbox requests are not approvals at all). One place, so the confirmation, the banner and the docs
// say the same thing.

/** What still asks a person, one line each, named the way the card names them. */
export const STILL_ASKS: readonly string[] = [
  'destructive commands (a forced push, deleting outside the workspace…)',
  'reading secrets and credentials (SSH keys, cloud credentials, tokens)',
  "changes to Threshold's own settings, tools or MCP servers",
  'calls Threshold cannot fully analyse',
  "the agent's questions to you",
  'requests to reach folders or hosts outside the sandbox',
];

/** What it never lets through at all. */
export const STILL_REFUSED: readonly string[] = ['commands on the never-run list', 'what your rules deny', 'asks of unattended (scheduled, background) turns'];

export function sessionName(title: string | null | undefined, id: string): string {
  const t = title?.trim();
  return t ? `“${t.length > 40 ? `${t.slice(0, 39)}…` : t}”` : id;
}

/** "Approving everything in this session without asking since 14:05: 3 calls so far." */
export function bannerText(since: string, uses: number): string {
  return `Approve all is on in this session since ${since}: calls run without asking you (${uses === 1 ? '1 call' : `${uses} calls`} so far).`;
}
