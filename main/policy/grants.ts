// Matching calls against grants: the one matcher the policy, the grant editor's preview and the width
// judge (grant-width.ts) all use. A shell command is covered only when every segment is covered (or a
// grant names exactly its command line); a grant never covers a segment with a substitution, code
// computed at run time, or a redirection it did not name, and (checked by evaluate) never lowers a floor.
import type { Grant } from '../../common/domain';
import { isHarmlessDevice, resolvePath, type PathContext } from './paths';
import type { CallFacts } from './tools';
import type { Segment } from './classifier';
import { argvMatchOf, normaliseGrantPattern, tokenParts } from '../../common/grant-pattern';

export interface GrantScopeContext {
  now: number;
  sessionId?: string | null;
}

export function grantIsActive(g: Grant, at: GrantScopeContext): boolean {
  if (g.scope === 'session') return !!at.sessionId && g.sessionId === at.sessionId;
  if (g.scope === 'until') return typeof g.expiresAt === 'number' && at.now < g.expiresAt;
  return true;
}

const globCache = new Map<string, RegExp>();
/** Path glob: ** crosses directories, * and ? stay inside one. */
export function pathGlobToRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (re) return re;
  let src = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      src += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') src += '[^/]*';
    else if (ch === '?') src += '[^/]';
    else src += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  re = new RegExp(src + '$');
  globCache.set(glob, re);
  return re;
}

export function pathMatchesGlob(path: string, glob: string, ctx: PathContext): boolean {
  const absGlob = glob.startsWith('/') || glob.startsWith('~') ? resolveGlobBase(glob, ctx) : `${ctx.workspace}/${glob.replace(/^\.\//, '')}`;
  return pathGlobToRegExp(absGlob).test(path);
}

function resolveGlobBase(glob: string, ctx: PathContext): string {
  return glob.startsWith('~') ? ctx.home + glob.slice(1) : glob;
}

const tokenCache = new Map<string, RegExp>();
/**
 * An argv token against a word of the command as written (common/grant-pattern.ts): `*` stands for any
 * characters within that one word, `\*` and `\\` for a literal star and backslash; nothing else is special.
 */
export function tokenMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*') && !pattern.includes('\\')) return pattern === value;
  let re = tokenCache.get(pattern);
  if (!re) {
    const src = tokenParts(pattern)
      .map((p) => (p.kind === 'any' ? '[\\s\\S]*' : p.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${src}$`);
    if (tokenCache.size > 10_000) tokenCache.clear();
    tokenCache.set(pattern, re);
  }
  return re.test(value);
}

/** Why a segment cannot be covered by any grant, or null when it can be. */
export function segmentUncoverable(s: Segment): string | null {
  if (s.substitution) return 'it contains a substitution';
  if (s.dynamic || !s.literal) return 'part of it is only known at run time';
  if (s.hardline || s.class === 'destructive') return 'it is destructive';
  if (s.effects.includes('secret_read') || s.effects.includes('capability_change')) return 'it reaches a floor effect';
  return null;
}

/** The words a grant compares: the environment assignments written before the program, then its argv. */
export function segmentWords(s: Segment): string[] {
  return s.assignments.length ? [...s.assignments, ...s.argv] : s.argv;
}

export function segmentMatchesGrant(s: Segment, g: Grant, ctx: PathContext): boolean {
  if (g.pattern.kind !== 'argv') return false;
  if (segmentUncoverable(s) !== null) return false;
  const pattern = normaliseGrantPattern(g.pattern) as Extract<Grant['pattern'], { kind: 'argv' }>;
  const argv = pattern.argv;
  const words = segmentWords(s);
  if (argv.length === 0 || argv.length > words.length) return false;
  if (argvMatchOf(pattern) === 'exact' && argv.length !== words.length) return false;
  for (let i = 0; i < argv.length; i++) if (!tokenMatches(argv[i]!, words[i]!)) return false;
  // Every file redirection must be one the grant names.
  for (const r of s.redirects) {
    if (r.op === '<<' || r.op === '<<<') continue;
    const target = r.literal ? resolvePath(r.target, ctx.workspace, ctx) : null;
    if (target !== null && isHarmlessDevice(target)) continue;
    if (!target || !(pattern.redirects ?? []).some((glob) => pathMatchesGlob(target, glob, ctx))) return false;
  }
  return true;
}

/** A grant for exactly one command line covers that line, character for character, when every part of it can be granted. */
export function commandMatchesGrant(facts: CallFacts, g: Grant): boolean {
  if (g.pattern.kind !== 'command' || facts.command === undefined) return false;
  if (facts.command.trim() !== g.pattern.command.trim()) return false;
  return facts.segments.length > 0 && facts.segments.every((s) => segmentUncoverable(s) === null);
}

export interface Coverage {
  covered: boolean;
  grants: Grant[];
  /** The first segment (index) no grant covers, for the explanation. */
  uncovered?: { index: number; why: string };
}

/** Whether active grants cover the whole call. */
export function coverCall(facts: CallFacts, grants: readonly Grant[], ctx: PathContext, at: GrantScopeContext): Coverage {
  const usable = grants.filter((g) => (g.tool === facts.tool || g.tool === '*') && grantIsActive(g, at));
  if (usable.length === 0) return { covered: false, grants: [] };
  if (facts.tool === 'run_command') {
    const whole = usable.find((g) => commandMatchesGrant(facts, g));
    if (whole) return { covered: true, grants: [whole] };
    const used: Grant[] = [];
    for (let i = 0; i < facts.segments.length; i++) {
      const s = facts.segments[i]!;
      const g = usable.find((x) => segmentMatchesGrant(s, x, ctx));
      if (!g) return { covered: false, grants: [], uncovered: { index: i, why: segmentUncoverable(s) ?? 'no grant matches it' } };
      if (!used.includes(g)) used.push(g);
    }
    return facts.segments.length ? { covered: true, grants: used } : { covered: false, grants: [] };
  }
  const tool = usable.find((g) => g.pattern.kind === 'tool');
  if (tool) return { covered: true, grants: [tool] };
  if (facts.url !== undefined) {
    const g = usable.find((x) => x.pattern.kind === 'url' && facts.url!.startsWith(x.pattern.prefix));
    return g ? { covered: true, grants: [g] } : { covered: false, grants: [] };
  }
  if (facts.paths.length) {
    const used: Grant[] = [];
    for (const p of facts.paths) {
      const g = usable.find((x) => x.pattern.kind === 'path' && pathMatchesGlob(p.path, x.pattern.glob, ctx));
      if (!g) return { covered: false, grants: [] };
      if (!used.includes(g)) used.push(g);
    }
    return { covered: true, grants: used };
  }
  return { covered: false, grants: [] };
}
