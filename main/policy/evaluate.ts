// evaluate(call, context) → Evaluation: the one decision of the approval gate. Pure: no I/O, no clock
// (the caller passes `now`). Strictest wins; only explicit user allow rules and grants may loosen, and
// never past a floor. Every Evaluation explains itself in one sentence.
import {
  type Class,
  type Decision,
  type Effect,
  type EffectRule,
  type Flag,
  type Grant,
  type Level,
  type ToolRule,
  type ToolTier,
} from '../../common/domain';
import { formatDecidedBy, type DecidedBy, type FloorName } from '../../common/decided-by';
import { describeHost, type HostTarget } from './classifier/network/types';
import { patternText } from '../../common/grant-pattern';
import { coverCall } from './grants';
import type { PathContext } from './paths';
import type { ReadText } from './classifier/network/types';
import { describeCall, type CallFacts, type McpToolDeclaration, type ObservedFacts } from './tools';

export interface PolicyRules {
  /** Per effect category: auto (allow without asking, above read-only), ask, deny. Unset: the level decides. */
  effects: Readonly<Partial<Record<Effect, EffectRule>>>;
  /** Per tool: allow, ask, deny. Honoured at every level. */
  tools: Readonly<Record<string, ToolRule>>;
  /** The rules an administrator's managed policy set (main/config/layers.ts), so an explanation names it. */
  managed?: { effects?: readonly string[]; tools?: readonly string[] };
}

export interface PolicyContext {
  level: Level;
  rules: PolicyRules;
  grants: readonly Grant[];
  paths: PathContext;
  /** Epoch ms, for grant expiry. */
  now: number;
  sessionId?: string | null;
  mcpTools?: Readonly<Record<string, McpToolDeclaration>>;
  /**
   * May a jailed call reach host:port through the egress proxy without asking? The runtime fills it from
   * `[network] allow_hosts` and the host grants; when absent no host is allowed, so at `full` every
   * network call asks.
   */
  hostAllowed?: HostPredicate;
  /**
   * The call runs outside Threshold's jail: another agent (Claude Code, Codex, Gemini CLI) asked through
   * its hook and runs it itself. What the levels allow because the jail confines it (a command at
   * auto-edit, anything but a known write inside the workspace at full, a download through the egress
   * proxy) asks instead. Grants and the user's explicit rules are choices about the call itself and hold.
   */
  runsOutsideJail?: boolean;
}

export type HostPredicate = (host: string, port: number) => boolean;

export interface ToolCallInput {
  tool: string;
  args: unknown;
  /** Directory the call runs in (the workspace when not given). */
  cwd?: string;
  observed?: ObservedFacts;
  /** How the classifier reads the files that name network hosts (git remotes, registries), gathered like `observed`. */
  readText?: ReadText;
}

export { FLOORS } from '../../common/decided-by';
export type Floor = FloorName;

export interface Evaluation {
  decision: Decision;
  tool: string;
  tier: ToolTier | null;
  class: Class;
  effects: Effect[];
  flags: Flag[];
  hardline: boolean;
  /** Every reason the classification found, most severe first. */
  reasons: string[];
  /** What decided, as data: logic reads this, never the string. */
  decider: DecidedBy;
  /**
   * The same, formatted once by formatDecidedBy (floor:<name>, safety:<flag>, rule:tool:<tool>=<rule>,
   * rule:effect:<effect>=<rule>, rule:effects=auto, grant:<id>, level:<level>, tool:<problem>): the
   * form stored and printed (`threshold evaluate --jsonl`, `ctl`), kept for those contracts.
   */
  decidedBy: string;
  /** An allow that holds only inside the jail's confinement (auto-edit): the command never gets the network. */
  confined: boolean;
  /** The segment (shell commands) that drove the decision. */
  segment: { index: number; text: string } | null;
  /** One sentence a user can read. */
  explanation: string;
  /** The floor that applies, if any: no grant, rule or reviewer may answer for the user. */
  floor: Floor | null;
  /** Grants that covered the call (when decidedBy is a grant). */
  grants: string[];
  /** True when an ask may be answered by a reviewer model (not a floor, not a forced prompt). */
  reviewable: boolean;
}

const SAFETY_FLAGS = ['parse_error', 'unknown_syntax', 'obfuscation'] as const satisfies readonly Flag[];
const SAFETY_WORDS: Record<string, string> = {
  parse_error: 'it is not valid bash, so what it would run cannot be known',
  unknown_syntax: 'it uses syntax the classifier does not know',
  obfuscation: 'it contains characters that make it read differently than it runs',
};

export function evaluate(call: ToolCallInput, ctx: PolicyContext): Evaluation {
  const described = describeCall(call.tool, call.args, { ctx: ctx.paths, cwd: call.cwd, mcpTools: ctx.mcpTools, observed: call.observed, readText: call.readText });
  if (!described.ok) return invalidCallEvaluation(call.tool, described.code, described.message);
  return decide(described.facts, ctx);
}

/** A call that is not a valid call of a known tool: denied, with what is wrong. */
export function invalidCallEvaluation(tool: string, problem: string, message: string): Evaluation {
  const decider: DecidedBy = { kind: 'tool', problem };
  return {
    decision: 'deny',
    tool,
    tier: null,
    class: 'write',
    effects: [],
    flags: [],
    hardline: false,
    reasons: [message],
    decider,
    decidedBy: formatDecidedBy(decider),
    confined: false,
    segment: null,
    explanation: `Denied: ${message}`,
    floor: null,
    grants: [],
    reviewable: false,
  };
}

/** The resolution order, documented in docs/policy.md. */
export function decide(f: CallFacts, ctx: PolicyContext): Evaluation {
  const out = (decision: Decision, decider: DecidedBy, explanation: string, extra: Partial<Evaluation> = {}): Evaluation => ({
    decision,
    tool: f.tool,
    tier: f.tier,
    class: f.class,
    effects: f.effects,
    flags: f.flags,
    hardline: f.hardline,
    reasons: f.reasons,
    decider,
    decidedBy: formatDecidedBy(decider),
    confined: extra.confined ?? false,
    segment: extra.segment ?? null,
    explanation,
    floor: extra.floor ?? null,
    grants: extra.grants ?? [],
    reviewable: decision === 'ask' && !extra.floor && decider.kind !== 'safety' && extra.reviewable !== false,
  });
  const what = describeTarget(f);
  // Whose rule decided: the card says so (the managed policy's cannot be changed by the user).
  const whose = (on: 'effects' | 'tools', name: string) => (ctx.rules.managed?.[on]?.includes(name) ? 'the managed policy’s rule' : 'your rule');
  const why = (seg: { index: number; text: string } | null) => mainReason(f, seg);

  // 1. Hardline: never runs, at any level.
  if (f.hardline) {
    const seg = segmentWhere(f, (s) => s.hardline);
    return out('deny', { kind: 'floor', floor: 'hardline' }, `Denied: ${what} is on the hardline list (${why(seg)}); it never runs, at any level.`, { segment: seg, floor: 'hardline' });
  }
  // 2. The tool itself refuses.
  if (f.refusal) return out('deny', { kind: 'tool', problem: 'refused' }, `Denied: ${f.refusal}.`);
  // 3. Explicit deny rules, checked before the level.
  const toolRule = ctx.rules.tools[f.tool];
  if (toolRule === 'deny') return out('deny', { kind: 'rule', on: 'tool', tool: f.tool, value: 'deny' }, `Denied: ${whose('tools', f.tool)} ${f.tool} = "deny" refuses this tool at every level.`);
  for (const e of f.effects) {
    if (ctx.rules.effects[e] === 'deny') {
      const seg = segmentWhere(f, (s) => s.effects.includes(e));
      return out('deny', { kind: 'rule', on: 'effect', effect: e, value: 'deny' }, `Denied: ${whose('effects', e)} ${e} = "deny" covers this call, which can reach ${e.replace('_', ' ')}${seg ? ` (${truncate(seg.text)})` : ''}.`, { segment: seg });
    }
  }
  // 4. Read-only is a ceiling: nothing but reads, whatever grants or rules say.
  if (ctx.level === 'read-only' && f.class !== 'read') {
    const seg = segmentWhere(f, (s) => s.class === f.class);
    return out('deny', { kind: 'level', level: 'read-only' }, `Denied: the level is read-only and ${what} is ${article(f.class)} ${f.class} call (${why(seg)}).`, { segment: seg });
  }
  // 5. Floors: a human decides each one; no grant, rule, level or reviewer can.
  const floor = floorOf(f);
  if (floor) {
    const seg = floor === 'destructive' ? segmentWhere(f, (s) => s.class === 'destructive') : segmentWhere(f, (s) => s.effects.includes(floor as Effect));
    return out('ask', { kind: 'floor', floor }, `Asks: ${FLOOR_WORDS[floor]} always need your decision (${why(seg)}).`, { segment: seg, floor });
  }
  // 6. Safety: what cannot be analysed, or what a tool insists on showing, is asked.
  const unsafe = SAFETY_FLAGS.find((flag) => f.flags.includes(flag));
  if (unsafe) return out('ask', { kind: 'safety', reason: unsafe }, `Asks: ${what} cannot be judged safely: ${SAFETY_WORDS[unsafe]}.`);
  if (f.override) return out('ask', { kind: 'safety', reason: 'override' }, `Asks: ${f.override}.`);
  if (f.flags.includes('non_posix')) return out('ask', { kind: 'safety', reason: 'non_posix' }, `Asks: ${what} is not a POSIX shell command and is not analysed.`);

  // 7. Grants: argument-scoped allow rules. They cover the call only when they cover every part of it.
  const coverage = coverCall(f, ctx.grants, ctx.paths, { now: ctx.now, sessionId: ctx.sessionId });
  if (coverage.covered) {
    const names = coverage.grants.map(describeGrant).join(', ');
    return out('allow', { kind: 'grant', grantIds: coverage.grants.map((g) => g.id) }, `Allowed: your grant${coverage.grants.length > 1 ? 's' : ''} ${names} cover${coverage.grants.length > 1 ? '' : 's'} every part of ${what}.`, { grants: coverage.grants.map((g) => g.id) });
  }

  // 8. Explicit ask rules.
  if (toolRule === 'ask') return out('ask', { kind: 'rule', on: 'tool', tool: f.tool, value: 'ask' }, `Asks: ${whose('tools', f.tool)} ${f.tool} = "ask".`);
  const asked = f.effects.find((e) => ctx.rules.effects[e] === 'ask');
  if (asked) {
    const seg = segmentWhere(f, (s) => s.effects.includes(asked));
    return out('ask', { kind: 'rule', on: 'effect', effect: asked, value: 'ask' }, `Asks: ${whose('effects', asked)} ${asked} = "ask" covers this call, which can reach ${asked.replace('_', ' ')}.`, { segment: seg });
  }

  // 8b. Review rules ask too; the reviewer may answer only when nothing but review rules makes the call
  // ask (a review is never looser than an ask, and never answers for an effect the user did not name).
  if (toolRule === 'review') return out('ask', { kind: 'rule', on: 'tool', tool: f.tool, value: 'review' }, `Asks: your rule ${f.tool} = "review" (a reviewer may approve it in your place; otherwise you decide).`);
  const reviewed = f.effects.find((e) => ctx.rules.effects[e] === 'review');
  if (reviewed) {
    const seg = segmentWhere(f, (s) => s.effects.includes(reviewed));
    const unnamed = f.effects.filter((e) => ctx.rules.effects[e] !== 'review' && ctx.rules.effects[e] !== 'auto');
    if (unnamed.length) {
      return out('ask', { kind: 'rule', on: 'effect', effect: reviewed, value: 'review' }, `Asks: your rule ${reviewed} = "review" covers this call, but it can also reach ${unnamed.join(', ')}, which no review rule names, so you decide.`, { segment: seg, reviewable: false });
    }
    return out('ask', { kind: 'rule', on: 'effect', effect: reviewed, value: 'review' }, `Asks: your rule ${reviewed} = "review" covers this call (a reviewer may approve it in your place; otherwise you decide).`, { segment: seg });
  }

  // 9. Explicit allow rules (never past the floors above).
  if (toolRule === 'allow') return out('allow', { kind: 'rule', on: 'tool', tool: f.tool, value: 'allow' }, `Allowed: your rule ${f.tool} = "allow".`);
  if (f.effects.length > 0 && f.effects.every((e) => ctx.rules.effects[e] === 'auto')) {
    return out('allow', { kind: 'rule', on: 'effects_auto' }, `Allowed: your rules set every effect this call can reach (${f.effects.join(', ')}) to "auto".`);
  }

  // 10. The level.
  return byLevel(f, ctx, out, what, why);
}

type Out = (decision: Decision, decider: DecidedBy, explanation: string, extra?: Partial<Evaluation>) => Evaluation;

function byLevel(f: CallFacts, ctx: PolicyContext, out: Out, what: string, why: (seg: { index: number; text: string } | null) => string): Evaluation {
  const level = ctx.level;
  const seg = segmentWhere(f, (s) => s.class === f.class);
  if (f.class === 'read') {
    const last = f.reasons[f.reasons.length - 1];
    return out('allow', { kind: 'level', level }, `Allowed: ${what} only reads, and reads run at every level${last ? ` (${truncate(last, 80)})` : ''}.`);
  }
  switch (level) {
    case 'read-only':
      return out('deny', { kind: 'level', level: 'read-only' }, `Denied: the level is read-only and ${what} is ${article(f.class)} ${f.class} call.`, { segment: seg });
    case 'supervised':
      return out('ask', { kind: 'level', level: 'supervised' }, `Asks: at the supervised level every ${f.class} call needs your approval (${why(seg)}).`, { segment: seg });
    case 'auto-edit': {
      const confined = f.class === 'write' && !f.outsideWorkspace && !f.flags.includes('dynamic') && (f.workspaceFileEdit || f.tool === 'run_command');
      if (confined && f.tool === 'run_command' && ctx.runsOutsideJail) {
        return out('ask', { kind: 'level', level: 'auto-edit' }, `Asks: auto-edit runs a command unasked only inside Threshold's jail after a checkpoint, and ${what} would run outside it (the agent that asked runs it itself), so it could be neither confined nor undone (${why(seg)}).`, { segment: seg });
      }
      if (confined) {
        const how = f.tool === 'run_command' ? 'it runs jailed to the workspace without network, after a checkpoint' : 'a checkpoint is taken first';
        return out('allow', { kind: 'level', level: 'auto-edit' }, `Allowed at auto-edit: ${what} only writes inside the workspace; ${how}, so it can be undone.`, { confined: true });
      }
      const reason = f.outsideWorkspace
        ? 'it writes outside the workspace'
        : f.flags.includes('dynamic')
          ? 'what it runs is only known at run time'
          : f.class === 'write'
            ? `${f.tool} is not a workspace file edit or a shell command`
            : `it is ${article(f.class)} ${f.class} call`;
      return out('ask', { kind: 'level', level: 'auto-edit' }, `Asks: auto-edit only allows writes confined to the workspace, and ${reason} (${why(seg)}).`, { segment: seg });
    }
    case 'full': {
      if (f.class === 'install') return out('ask', { kind: 'level', level: 'full' }, `Asks: at the full level installs need your approval (${why(seg)}).`, { segment: seg });
      if (ctx.runsOutsideJail) {
        // Without the jail, full keeps only what the jail would not have had to stop: a write inside the
        // workspace whose effect is known before it runs.
        const unjailed = f.class === 'network' ? 'it reaches the network, which outside the jail no egress proxy watches' : f.outsideWorkspace ? 'it writes outside the workspace' : f.flags.includes('dynamic') ? 'what it runs is only known at run time' : null;
        if (unjailed) return out('ask', { kind: 'level', level: 'full' }, `Asks: ${what} would run outside Threshold's jail (the agent that asked runs it itself), and ${unjailed} (${why(seg)}).`, { segment: seg });
        return out('allow', { kind: 'level', level: 'full' }, `Allowed: the level is full and ${what} writes only inside the workspace; it runs outside Threshold's jail, as the agent that asked runs it (${why(seg)}).`);
      }
      if (f.class !== 'network') return out('allow', { kind: 'level', level: 'full' }, `Allowed: the level is full, which runs reads and writes (${why(seg)}).`);
      const egress = judgeEgress(f, ctx.hostAllowed);
      if (!egress.ok) return out('ask', { kind: 'level', level: 'full' }, `Asks: at the full level only downloads from allowed hosts run unasked, and ${egress.reason}.`, { segment: egress.segment });
      return out('allow', { kind: 'level', level: 'full' }, `Allowed at full: ${what} only downloads, from allowed hosts (${egress.hosts.join(', ')}); it runs through the egress proxy.`);
    }
  }
}

type Egress = { ok: true; hosts: string[] } | { ok: false; reason: string; segment: { index: number; text: string } | null };

/**
 * At `full`, a network call runs unasked only when every network segment only downloads and every host
 * it names is allowed. Anything the classifier cannot pin down asks, with the reason on the card.
 */
export function judgeEgress(f: CallFacts, hostAllowed: HostPredicate | undefined): Egress {
  const hosts: string[] = [];
  const check = (targets: readonly HostTarget[], seg: { index: number; text: string } | null): Egress | null => {
    for (const t of targets) {
      if (t.host === null) return { ok: false, reason: `it reaches ${describeHost(t)}`, segment: seg };
      if (!hostAllowed?.(t.host, t.port)) return { ok: false, reason: `${describeHost(t)} is not an allowed host (\`[network] allow_hosts\` or a host grant)`, segment: seg };
      const shown = describeHost(t);
      if (!hosts.includes(shown)) hosts.push(shown);
    }
    return null;
  };
  if (f.tool === 'web_fetch') {
    let target: HostTarget;
    try {
      const u = new URL(f.url ?? '');
      target = { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 };
    } catch {
      target = { host: null, why: 'the URL does not parse' };
    }
    return check([target], null) ?? { ok: true, hosts };
  }
  if (f.tool !== 'run_command') return { ok: false, reason: `${f.tool} reaches the network in a way Threshold cannot check`, segment: null };
  for (let index = 0; index < f.segments.length; index++) {
    const s = f.segments[index]!;
    if (s.class !== 'network') continue;
    const seg = { index, text: s.text };
    const program = s.program ?? 'it';
    if (s.dynamic) return { ok: false, reason: `what \`${truncate(s.text)}\` runs is only known at run time`, segment: seg };
    if (!s.literal) return { ok: false, reason: `the arguments of \`${truncate(s.text)}\` are only known at run time, so they can carry local data`, segment: seg };
    if (s.network.length === 0) return { ok: false, reason: `${program} reaches the network in a way the classifier does not model`, segment: seg };
    const sending = s.network.find((u) => u.kind !== 'download');
    if (sending) return { ok: false, reason: sending.kind === 'upload' ? `${sending.reason}; uploads ask at every level` : `${sending.reason}, which is not a plain download`, segment: seg };
    for (const u of s.network) {
      const refused = check(u.hosts, seg);
      if (refused) return refused;
    }
  }
  return { ok: true, hosts };
}

const FLOOR_WORDS: Record<Floor, string> = {
  hardline: 'hardline calls',
  destructive: 'destructive calls',
  secret_read: 'reads of credential locations',
  capability_change: 'changes to what the agent can do (configuration, hooks, new tools or servers)',
  human_input: 'questions for you',
};

function floorOf(f: CallFacts): Floor | null {
  if (f.class === 'destructive') return 'destructive';
  if (f.effects.includes('secret_read')) return 'secret_read';
  if (f.effects.includes('capability_change')) return 'capability_change';
  if (f.effects.includes('human_input')) return 'human_input';
  return null;
}

function segmentWhere(f: CallFacts, test: (s: CallFacts['segments'][number]) => boolean): { index: number; text: string } | null {
  const index = f.segments.findIndex(test);
  return index === -1 ? null : { index, text: f.segments[index]!.text };
}

function mainReason(f: CallFacts, seg: { index: number; text: string } | null): string {
  if (seg) {
    const reasons = f.segments[seg.index]!.reasons;
    return reasons[reasons.length - 1] ?? truncate(seg.text);
  }
  return f.reasons[f.reasons.length - 1] ?? f.tool;
}

function describeTarget(f: CallFacts): string {
  if (f.tool === 'run_command') {
    // The command as written, joiners and all: a reason never rewrites what it quotes.
    const text = f.command ?? f.segments.map((s) => s.text).join('; ');
    return text.trim() ? `\`${truncate(text)}\`` : 'this command';
  }
  return `this ${f.tool} call`;
}

function describeGrant(g: Grant): string {
  const p = g.pattern;
  const pattern = p.kind === 'argv' || p.kind === 'command' ? `\`${truncate(patternText(p), 80)}\`` : p.kind === 'path' ? `${g.tool} ${p.glob}` : p.kind === 'url' ? `${g.tool} ${p.prefix}` : g.tool;
  return `${pattern} (${g.scope === 'until' ? 'until ' + new Date(g.expiresAt ?? 0).toISOString() : g.scope})`;
}

function article(c: Class): string {
  return c === 'install' ? 'an' : 'a';
}

/**
 * The start of what a reason quotes, character for character (tabs, newlines and hidden characters
 * included: the one escaping rule shows them wherever the reason is shown), cut with "…" when longer.
 */
function truncate(s: string, n = 60): string {
  const chars = Array.from(s.trim());
  return chars.length > n ? chars.slice(0, n - 1).join('') + '…' : chars.join('');
}
