// Is a grant as narrow as it looks? Judged by meaning, not by spelling: the pattern is run through the
// real policy (describeCall → decide, whose grant step is coverCall in grants.ts) against the corpus of
// calls no wide grant may let run (grant-width-corpus.ts), against those calls rewritten with the
// pattern's own words, and against its own example. One function, judgeGrantWidth, answers for
// grant.create and grant.update, the card's Always allow, the config file's [[grants]] and the grants
// already stored (a stored grant judged too wide is not in force).
import { classRank, type Class, type Grant, type GrantPattern } from '../../common/domain';
import {
  argvMatchOf,
  formatToken,
  isAssignmentWord,
  isLoneWildcard,
  literalToken,
  normaliseGrantPattern,
  patternText,
  tokenHasWildcard,
  tokenLiteral,
  tokenParts,
} from '../../common/grant-pattern';
import { decide, type PolicyContext } from './evaluate';
import { lookupProgram } from './classifier/programs';
import { COMMAND_PROBES, MEANING_TAILS, PATH_PROBES, URL_PROBES } from './grant-width-corpus';
import { coverCall, segmentUncoverable } from './grants';
import { isInside, type PathContext } from './paths';
import { BUILTIN_TOOL_NAMES, describeCall, type CallFacts } from './tools';

export type GrantJudgement = { ok: true } | { ok: false; code: 'invalid_grant' | 'too_wide' | 'covers_nothing'; reason: string };

/** How the policy would treat one call if this grant were the only one: let it run, ask, or never (no grant can). */
export type CallVerdict = { verdict: 'covered' | 'asks' | 'never'; why: string; facts: CallFacts | null };

const PATH_TOOLS = ['read_file', 'list_dir', 'search_files', 'write_file', 'edit_file', 'open_path'];

/** The arguments a tool is called with for one example (a command, a path, a URL). */
export function exampleArgs(tool: string, text: string): Record<string, unknown> {
  if (tool === 'run_command') return { command: text };
  if (tool === 'web_fetch') return { url: text };
  if (tool === 'write_file') return { path: text, content: '' };
  if (tool === 'edit_file') return { path: text, old: 'x', new: 'y' };
  if (tool === 'search_files') return { pattern: 'x', path: text };
  return { path: text };
}

/**
 * The policy's answer for a call with `grant` as the only grant, every other rule at "ask" for its tool
 * (so what runs unasked runs because of the grant). The real decide(): floors, safety and the matcher.
 */
export function verdictFor(facts: CallFacts, grant: Grant, ctx: PathContext): CallVerdict {
  const policy: PolicyContext = { level: 'supervised', rules: { effects: {}, tools: { [facts.tool]: 'ask' } }, grants: [grant], paths: ctx, now: 0, sessionId: null };
  const e = decide(facts, policy);
  if (e.decision === 'allow' && e.decider.kind === 'grant') return { verdict: 'covered', why: 'it would run without asking', facts };
  const blocked = facts.segments.find((s) => segmentUncoverable(s) !== null);
  if (e.floor || e.decision === 'deny' || e.decider.kind === 'safety' || blocked) {
    return { verdict: 'never', why: blocked && !e.floor ? `"${blocked.text}": ${segmentUncoverable(blocked)}` : stripVerb(e.explanation), facts };
  }
  const c = facts.tool === 'run_command' && facts.segments.length > 1 ? coverCall(facts, [grant], ctx, { now: 0, sessionId: null }).uncovered : undefined;
  const seg = c ? facts.segments[c.index] : undefined;
  return { verdict: 'asks', why: seg ? `the grant does not match "${seg.text}"` : 'the grant does not match it', facts };
}

export function verdictForText(tool: string, text: string, grant: Grant, ctx: PathContext, cwd?: string): CallVerdict {
  const d = describeCall(tool, exampleArgs(tool, text), { ctx, cwd });
  if (!d.ok) return { verdict: 'never', why: d.message, facts: null };
  return verdictFor(d.facts, grant, ctx);
}

function stripVerb(explanation: string): string {
  return explanation.replace(/^(Asks|Denied|Allowed)[^:]*: /, '');
}

function asGrant(tool: string, pattern: GrantPattern): Grant {
  return { id: 'judged', tool, pattern, scope: 'always', provenance: { source: 'user' }, createdAt: 0 };
}

const cache = new Map<string, GrantJudgement>();

/**
 * Whether a grant may exist: its shape, whether it can ever let anything run, and whether it covers more
 * than it shows. A refusal is a sentence naming why, with the call it would have let through.
 */
export function judgeGrantWidth(tool: string, rawPattern: GrantPattern, ctx: PathContext): GrantJudgement {
  const pattern = normaliseGrantPattern(rawPattern);
  const key = `${ctx.home}\0${ctx.workspace}\0${ctx.appDirs.join('\0')}\0${tool}\0${JSON.stringify(pattern)}`;
  let j = cache.get(key);
  if (!j) {
    j = judge(tool, pattern, ctx);
    if (cache.size > 5000) cache.clear();
    cache.set(key, j);
  }
  return j;
}

function judge(tool: string, p: GrantPattern, ctx: PathContext): GrantJudgement {
  const invalid = (reason: string): GrantJudgement => ({ ok: false, code: 'invalid_grant', reason });
  if (!tool.startsWith('mcp.') && !(BUILTIN_TOOL_NAMES as string[]).includes(tool)) return invalid(`There is no tool named "${tool}".`);
  if (tool === 'ask_user' || tool === 'notify_user') return invalid(`A grant would do nothing for ${tool}: it never asks.`);
  if (!p || typeof p !== 'object') return invalid('A grant needs a pattern.');
  switch (p.kind) {
    case 'argv':
      return tool === 'run_command' ? judgeArgv(p, ctx) : invalid('Command patterns (argv) are for run_command.');
    case 'command':
      if (tool !== 'run_command') return invalid('Command patterns are for run_command.');
      if (typeof p.command !== 'string' || !p.command.trim()) return invalid('A command grant needs the command.');
      return coversItself(tool, p, p.command, ctx) ?? { ok: true };
    case 'path':
      return PATH_TOOLS.includes(tool) ? judgePath(tool, p, ctx) : invalid(`Path patterns are for ${PATH_TOOLS.join(', ')}, not ${tool}.`);
    case 'url':
      return tool === 'web_fetch' ? judgeUrl(p, ctx) : invalid('URL patterns are for web_fetch.');
    case 'tool':
      return judgeTool(tool, ctx);
    default:
      return invalid('The pattern kind must be argv, command, path, url or tool.');
  }
}

/** A pattern that does not let its own example run lets nothing run: refused with what stops it. */
function coversItself(tool: string, p: GrantPattern, example: string, ctx: PathContext): GrantJudgement | null {
  const v = verdictForText(tool, example, asGrant(tool, p), ctx);
  if (v.verdict === 'covered') return null;
  return { ok: false, code: 'covers_nothing', reason: `This grant would never let anything run: \`${oneLine(example)}\` ${v.verdict === 'never' ? `still asks (${v.why})` : 'is not matched by it'}, and no grant lowers that.` };
}

function tooWide(shown: string, example: string, why: string): GrantJudgement {
  return { ok: false, code: 'too_wide', reason: `"${shown}" is too wide: it would also allow \`${oneLine(example)}\`, which ${why}.` };
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 100 ? `${t.slice(0, 99)}…` : t;
}

// ── commands ──────────────────────────────────────────────────────────────────────────────────

/** The classifier's rule for a program: python3.12 and python3 are one family, /usr/bin/env and env too. */
function familyOf(program: string): unknown {
  return lookupProgram(program)?.rule ?? program;
}

const probeCache = new Map<string, { command: string; why: string; facts: CallFacts }[]>();
/** The command probes, classified once per home and workspace (the classifier is the slow part). */
function probeFacts(ctx: PathContext): { command: string; why: string; facts: CallFacts }[] {
  const key = `${ctx.home}\0${ctx.workspace}\0${ctx.appDirs.join('\0')}`;
  let list = probeCache.get(key);
  if (!list) {
    list = [];
    for (const p of COMMAND_PROBES) {
      const d = describeCall('run_command', { command: p.command }, { ctx });
      if (d.ok) list.push({ ...p, facts: d.facts });
    }
    if (probeCache.size > 16) probeCache.clear();
    probeCache.set(key, list);
  }
  return list;
}

// ── (helpers) ──────────────────────────────────────────────────────────────────────────────────

/** A word of the pattern as a shell word of an example command: wildcards become "example". */
export function exampleWord(token: string): string {
  return shellQuote(
    tokenParts(token)
      .map((part) => (part.kind === 'any' ? 'example' : part.text))
      .join(''),
  );
}

function shellQuote(w: string): string {
  return /^[\w@%+=:,./~-]+$/.test(w) && !w.startsWith('~') ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

interface Reach {
  rank: number;
  effects: Set<string>;
  sends: boolean;
  hosts: Set<string>;
}

function reachOf(f: CallFacts): Reach {
  const hosts = new Set<string>();
  let sends = false;
  for (const s of f.segments) {
    for (const n of s.network) {
      if (n.kind !== 'download') sends = true;
      for (const h of n.hosts) hosts.add(h.host ?? '?');
    }
  }
  return { rank: classRank(f.class as Class), effects: new Set(f.effects), sends, hosts };
}

/** What `v` can do that `base` cannot, as a phrase, or null. */
function escalation(v: Reach, base: Reach): string | null {
  if (v.rank > base.rank) return `is ${CLASS_WORDS[v.rank]} call`;
  for (const e of v.effects) if (!base.effects.has(e)) return `can reach ${e.replace('_', ' ')}`;
  if (v.sends && !base.sends) return 'sends data out';
  for (const h of v.hosts) if (!base.hosts.has(h)) return `reaches another host (${h === '?' ? 'one the classifier cannot name' : h})`;
  return null;
}

const CLASS_WORDS = ['a read', 'a write', 'a network', 'an install', 'a destructive'];

function escalationBase(base: Reach): string {
  return `is ${CLASS_WORDS[base.rank]} call`;
}

function judgeArgv(p: Extract<GrantPattern, { kind: 'argv' }>, ctx: PathContext): GrantJudgement {
  const invalid = (reason: string): GrantJudgement => ({ ok: false, code: 'invalid_grant', reason });
  if (!Array.isArray(p.argv) || p.argv.length === 0 || p.argv.some((t) => typeof t !== 'string' || t === '')) return invalid('A command pattern needs at least one non-empty word.');
  const match = argvMatchOf(p);
  if (match === 'exact' && p.argv.length > 1 && isLoneWildcard(p.argv[p.argv.length - 1]!)) return invalid('A last word "*" means "any further arguments": make the pattern a prefix (match = "prefix") instead.');
  const programAt = p.argv.findIndex((t) => !isAssignmentWord(tokenLiteral(t) ?? t));
  const shown = patternText(p);
  const grant = asGrant('run_command', p);
  if (programAt === -1) return invalid('A command pattern needs the name of a program after its NAME=value words.');
  const wildAssignment = p.argv.slice(0, programAt).find(tokenHasWildcard);
  if (wildAssignment !== undefined) return { ok: false, code: 'too_wide', reason: `"${shown}" is too wide: the environment assignment ${formatToken(wildAssignment)} could set PATH, LD_PRELOAD or a pager to anything; write its value in full.` };
  if (tokenHasWildcard(p.argv[programAt]!)) {
    const hit = probeFacts(ctx).find((probe) => verdictFor(probe.facts, grant, ctx).verdict === 'covered');
    const also = hit ? `: it would also allow \`${oneLine(hit.command)}\`, which ${hit.why}` : '';
    return { ok: false, code: 'too_wide', reason: `"${shown}" is too wide: its first word ${formatToken(p.argv[programAt]!)} could be any program${also}. The first word must name one program.` };
  }
  const words = p.argv.map(exampleWord);
  const own = patternExample(p)!;
  const itself = coversItself('run_command', p, own, ctx);
  if (itself) return itself;
  // Exactly one command's words: as wide as it looks.
  if (match === 'exact' && !p.argv.some(tokenHasWildcard)) return { ok: true };

  for (const probe of probeFacts(ctx)) {
    if (verdictFor(probe.facts, grant, ctx).verdict === 'covered') return tooWide(shown, probe.command, probe.why);
  }
  // The same harms spelt with this pattern's program and words: the probes of the same program, and
  // arguments that change what a command does, after the pattern's own words.
  const base = describeCall('run_command', { command: own }, { ctx });
  if (!base.ok) return { ok: true };
  const baseReach = reachOf(base.facts);
  const program = base.facts.segments[0]?.program ?? null;
  const lead = words.slice(0, programAt + 1).join(' ');
  // `same`: the probe itself, spelt with this pattern's program word (/usr/bin/python3 for python3): as
  // harmful as the probe. Otherwise harmful only if it can do more than the pattern's own example.
  const variants: { command: string; why: string; same: boolean }[] = [];
  const literalWords = p.argv.map((t) => tokenLiteral(t));
  for (const probe of probeFacts(ctx)) {
    const first = probe.facts.segments[0];
    if (program === null || probe.facts.segments.length !== 1 || !first?.program || familyOf(first.program) !== familyOf(program)) continue;
    variants.push({ command: `${lead} ${first.argv.slice(1).map(shellQuote).join(' ')}`, why: probe.why, same: true });
    if (match !== 'prefix') continue;
    // After the pattern's words: the probe's arguments past the words they share (git push … after `git push`).
    let shared = 1;
    while (shared < first.argv.length && shared - programAt < literalWords.length - programAt && literalWords[shared + programAt] === first.argv[shared]) shared++;
    variants.push({ command: `${own} ${first.argv.slice(shared).map(shellQuote).join(' ')}`, why: probe.why, same: false });
  }
  if (match === 'prefix') for (const t of MEANING_TAILS) variants.push({ command: `${own} ${t.args}`, why: t.why, same: false });
  for (const v of variants) {
    const verdict = verdictForText('run_command', v.command, grant, ctx);
    if (verdict.verdict !== 'covered' || !verdict.facts) continue;
    if (v.same) return tooWide(shown, v.command, v.why);
    const more = escalation(reachOf(verdict.facts), baseReach);
    if (!more) continue;
    const reason = verdict.facts.reasons.find((r) => !base.facts.reasons.includes(r));
    return tooWide(shown, v.command, `${more}${reason ? ` (${reason})` : ''}, where \`${oneLine(own)}\` ${escalationBase(baseReach)}`);
  }
  return { ok: true };
}

// ── paths, URLs, whole tools ──────────────────────────────────────────────────────────────────

function probePath(path: string, ctx: PathContext): string {
  if (path.startsWith('~/')) return `${ctx.home}${path.slice(1)}`;
  if (path.startsWith('/')) return path;
  return `${ctx.workspace}/${path}`;
}

function judgePath(tool: string, p: Extract<GrantPattern, { kind: 'path' }>, ctx: PathContext): GrantJudgement {
  if (typeof p.glob !== 'string' || !p.glob.trim()) return { ok: false, code: 'invalid_grant', reason: 'A path pattern needs a glob.' };
  if (p.glob.includes('\0')) return { ok: false, code: 'invalid_grant', reason: 'A path pattern cannot contain a NUL character.' };
  const grant = asGrant(tool, p);
  const itself = coversItself(tool, p, patternExample(p)!, ctx);
  if (itself) return itself;
  if (!/[*?]/.test(p.glob)) return { ok: true };
  for (const probe of PATH_PROBES) {
    const path = probePath(probe.path, ctx);
    if (verdictForText(tool, path, grant, ctx).verdict === 'covered') return tooWide(p.glob, `${tool} ${probe.path}`, `is ${probe.why}`);
  }
  return { ok: true };
}

function judgeUrl(p: Extract<GrantPattern, { kind: 'url' }>, ctx: PathContext): GrantJudgement {
  const invalid = (reason: string): GrantJudgement => ({ ok: false, code: 'invalid_grant', reason });
  let url: URL;
  try {
    url = new URL(p.prefix);
  } catch {
    return invalid('A URL prefix must be a URL: the scheme, the host and the slash after it (https://example.com/).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return invalid('A URL prefix must start with https:// or http://.');
  if (url.username || url.password) return invalid(`A URL prefix must not carry a user name: "${p.prefix}" reaches ${url.host}, not what it seems to name.`);
  if (!p.prefix.startsWith(`${url.origin}/`)) return invalid(`A URL prefix must start with the scheme, one host and the slash after it, as ${url.origin}/ does.`);
  const grant = asGrant('web_fetch', p);
  const itself = coversItself('web_fetch', p, patternExample(p)!, ctx);
  if (itself) return itself;
  for (const probe of URL_PROBES) if (verdictForText('web_fetch', probe.url, grant, ctx).verdict === 'covered') return tooWide(p.prefix, `web_fetch ${probe.url}`, `is ${probe.why}`);
  return { ok: true };
}

function judgeTool(tool: string, ctx: PathContext): GrantJudgement {
  const grant = asGrant(tool, { kind: 'tool' });
  const shown = `every ${tool} call`;
  if (tool === 'run_command') {
    const example = COMMAND_PROBES[0]!;
    return { ok: false, code: 'too_wide', reason: `"${shown}" is too wide: it would stand for any command, \`${oneLine(example.command)}\` included, which ${example.why}. Grant one command's words instead.` };
  }
  if (PATH_TOOLS.includes(tool)) {
    for (const probe of PATH_PROBES) {
      const path = probePath(probe.path, ctx);
      if (verdictForText(tool, path, grant, ctx).verdict === 'covered') return tooWide(shown, `${tool} ${probe.path}`, `is ${probe.why}`);
    }
  }
  if (tool === 'web_fetch') {
    for (const probe of URL_PROBES) if (verdictForText(tool, probe.url, grant, ctx).verdict === 'covered') return tooWide(shown, `web_fetch ${probe.url}`, `is ${probe.why}`);
  }
  return { ok: true };
}

/** A pattern's own example, the call it exists for: its words with `*` as "example", the command line, a path, a URL. */
export function patternExample(p: GrantPattern): string | null {
  switch (p.kind) {
    case 'argv':
      return p.argv.map(exampleWord).join(' ');
    case 'command':
      return p.command;
    case 'path': {
      const example = p.glob.replace(/\*\*\/?/g, 'sub/').replace(/\*/g, 'example').replace(/\?/g, 'x');
      return example.endsWith('/') ? `${example}example` : example;
    }
    case 'url':
      return `${p.prefix}example`;
    default:
      return null;
  }
}

// ── proposals ─────────────────────────────────────────────────────────────────────────────────

/**
 * The grant a card offers for a call: exactly this call. One command's words (with the redirections it
 * makes) for a simple command, the whole command line for a compound one, the path, the URL, or the
 * MCP tool; null when no grant could cover it. One call, one grant.
 */
export function proposeGrantPattern(f: CallFacts, ctx: PathContext): GrantPattern | null {
  if (f.tool === 'run_command') {
    if (f.segments.length === 0 || f.segments.some((s) => segmentUncoverable(s) !== null)) return null;
    const s = f.segments[0]!;
    const words = [...s.assignments, ...s.argv];
    if (f.segments.length === 1 && words.every((w) => w !== '')) {
      const redirects = s.redirects.filter((r) => r.op !== '<<' && r.op !== '<<<').map((r) => r.target);
      return { kind: 'argv', argv: words.map(literalToken), match: 'exact', ...(redirects.length ? { redirects } : {}) };
    }
    return f.command ? { kind: 'command', command: f.command.trim() } : null;
  }
  if (f.url !== undefined) return { kind: 'url', prefix: f.url };
  if (f.tool.startsWith('mcp.')) return { kind: 'tool' };
  if (f.paths.length === 1) {
    const p = f.paths[0]!.path;
    // A path holding glob characters would be a wider glob than the file: no proposal.
    if (/[*?]/.test(p)) return null;
    return { kind: 'path', glob: isInside(p, ctx.workspace) && p !== ctx.workspace ? p.slice(ctx.workspace.length + 1) : p };
  }
  return null;
}
