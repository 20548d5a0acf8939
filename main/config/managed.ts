// The managed policy: an administrator's file whose rules can only tighten what the user's own
// configuration and the Settings page allow. It is trusted only when nobody but root could have written
// it (the file and every folder above it root's, none writable by group or others), because a policy the
// user can edit constrains nothing. A file that fails that test is a start-up error naming the fix,
// never silently skipped: the administrator meant it to apply.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { EFFECTS, LEVELS, type Effect, type Level } from '../../common/domain';
import { ConfigError } from './config-error';
import { ConfigFileProblem, readConfigText } from './read-file';

/** The rule values a managed file may set: both only ever tighten. */
export const MANAGED_RULES = ['ask', 'deny'] as const;
export type ManagedRule = (typeof MANAGED_RULES)[number];

export interface ManagedPolicy {
  /** The file(s) it came from, as named in errors and on the Settings page. */
  file: string;
  /** The highest level anyone may choose (the file or the Settings page). */
  maxLevel: Level | null;
  effects: Readonly<Partial<Record<Effect, ManagedRule>>>;
  tools: Readonly<Record<string, ManagedRule>>;
  /** Added to the user's `[security] never_auto_approve`. */
  neverAutoApprove: readonly string[];
  /** `[security.auto_approval] enabled = false`: no reviewer may answer for the user. */
  reviewerForbidden: boolean;
}

const managedRule = z.enum(MANAGED_RULES, { message: 'a managed rule can only tighten: "ask" or "deny"' });

const managedSchema = z
  .object({
    autonomy: z.object({ max_level: z.enum(LEVELS).optional() }).strict().optional(),
    rules: z
      .object({
        effects: z.object(Object.fromEntries(EFFECTS.map((e) => [e, managedRule.optional()]))).strict().optional(),
        tools: z.record(z.string().min(1), managedRule).optional(),
      })
      .strict()
      .optional(),
    security: z
      .object({
        never_auto_approve: z.array(z.string().min(1)).optional(),
        auto_approval: z.object({ enabled: z.literal(false, { message: 'a managed policy can only turn the reviewer off (false)' }) }).strict().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Where an administrator puts the file on this platform. */
export function systemManagedPath(platform: NodeJS.Platform = process.platform): string {
  return platform === 'darwin' ? '/Library/Application Support/Threshold/managed.toml' : '/etc/threshold/managed.toml';
}

/**
 * The files to read: the system file always, plus THRESHOLD_MANAGED_POLICY (for administrators and
 * tests). The variable only adds a policy, so a user who sets it cannot drop the system one.
 */
export function managedPolicyPaths(env: NodeJS.ProcessEnv, system = systemManagedPath()): { path: string; required: boolean }[] {
  const extra = env['THRESHOLD_MANAGED_POLICY'];
  return [{ path: system, required: false }, ...(extra && extra !== system ? [{ path: extra, required: true }] : [])];
}

/** What the trust check needs to know of a path. */
export interface PathFacts {
  path: string;
  uid: number;
  mode: number;
  kind: 'file' | 'dir' | 'other';
}

const WRITABLE_BY_OTHERS = 0o022;
const STICKY = 0o1000;

/**
 * Why a managed file is not trusted, or null. `chain` is the file first, then each folder above it up to
 * `/`. Only root may be able to write it, whoever runs Threshold: a policy another account can edit
 * constrains nothing.
 */
export function managedTrustProblem(chain: readonly PathFacts[]): string | null {
  const [file, ...dirs] = chain;
  if (!file) return 'the file does not exist';
  if (file.kind !== 'file') return 'it is not a regular file';
  const fix = `run: sudo chown root ${file.path} && sudo chmod go-w ${file.path}`;
  if (file.uid !== 0) return `it is owned by uid ${file.uid}, not root, so its owner could loosen it (${fix})`;
  if ((file.mode & WRITABLE_BY_OTHERS) !== 0) return `it is writable by group or others (mode ${octal(file.mode)}), so they could loosen it (${fix})`;
  for (const d of dirs) {
    const dirFix = `run: sudo chown root ${d.path} && sudo chmod go-w ${d.path}`;
    if (d.uid !== 0) return `the folder ${d.path} is owned by uid ${d.uid}, not root, so its owner could replace the file (${dirFix})`;
    // A sticky folder (/tmp) lets others add files but not replace root's.
    if ((d.mode & WRITABLE_BY_OTHERS) !== 0 && (d.mode & STICKY) === 0) return `the folder ${d.path} is writable by group or others (mode ${octal(d.mode)}), so they could replace the file (${dirFix})`;
  }
  return null;
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(3, '0');
}

function factsOf(path: string, st: Stats): PathFacts {
  return { path, uid: st.uid, mode: st.mode, kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other' };
}

/** The file (symlinks resolved, so the real file and its real folders are judged) and every folder above it. */
function chainOf(path: string): PathFacts[] {
  const real = realpathSync(path);
  const chain = [factsOf(real, lstatSync(real))];
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    chain.push(factsOf(dir, lstatSync(dir)));
    if (dir === dirname(dir)) break;
  }
  return chain;
}

/** Reads and checks one managed file; null when it is absent and may be. */
export function loadManagedFile(path: string, required: boolean): ManagedPolicy | null {
  let text: string | null;
  try {
    text = readConfigText(path, required);
  } catch (err) {
    if (err instanceof ConfigFileProblem) throw new ConfigError(path, '', `managed policy refused: ${err.message}`);
    throw err;
  }
  if (text === null) return null;
  const problem = managedTrustProblem(chainOf(path));
  if (problem) throw new ConfigError(path, '', `managed policy refused: ${problem}`);
  return parseManaged(text, path);
}

export function parseManaged(text: string, file: string): ManagedPolicy {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    throw new ConfigError(file, '', `not valid TOML: ${((err as Error).message ?? String(err)).split('\n')[0]}`);
  }
  const parsed = managedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      throw new ConfigError(file, [key, keys[0]].filter(Boolean).join('.'), `a managed policy has no key "${keys[0]}" (it may set autonomy.max_level, rules.effects, rules.tools, security.never_auto_approve, security.auto_approval.enabled = false)`);
    }
    throw new ConfigError(file, key, issue.message);
  }
  const m = parsed.data;
  return {
    file,
    maxLevel: m.autonomy?.max_level ?? null,
    effects: Object.fromEntries(Object.entries(m.rules?.effects ?? {}).filter(([, v]) => v !== undefined)) as Partial<Record<Effect, ManagedRule>>,
    tools: m.rules?.tools ?? {},
    neverAutoApprove: m.security?.never_auto_approve ?? [],
    reviewerForbidden: m.security?.auto_approval?.enabled === false,
  };
}

/** Several managed files act as one: the strictest of each. */
export function combineManaged(policies: readonly ManagedPolicy[]): ManagedPolicy | null {
  if (policies.length === 0) return null;
  if (policies.length === 1) return policies[0]!;
  const levelRank = (l: Level | null) => (l === null ? LEVELS.length : LEVELS.indexOf(l));
  const strictest = (a: ManagedRule | undefined, b: ManagedRule | undefined): ManagedRule | undefined => (a === 'deny' || b === 'deny' ? 'deny' : (a ?? b));
  const merge = <K extends string>(maps: readonly Readonly<Partial<Record<K, ManagedRule>>>[]) => {
    const out: Partial<Record<K, ManagedRule>> = {};
    for (const m of maps) for (const [k, v] of Object.entries(m) as [K, ManagedRule][]) out[k] = strictest(out[k], v);
    return out;
  };
  return {
    file: policies.map((p) => p.file).join(' and '),
    maxLevel: policies.map((p) => p.maxLevel).reduce((a, b) => (levelRank(b) < levelRank(a) ? b : a), null as Level | null),
    effects: merge(policies.map((p) => p.effects)),
    tools: merge(policies.map((p) => p.tools)) as Record<string, ManagedRule>,
    neverAutoApprove: [...new Set(policies.flatMap((p) => p.neverAutoApprove))],
    reviewerForbidden: policies.some((p) => p.reviewerForbidden),
  };
}

/** The managed policy in force for this environment, or null when there is none. */
export function loadManagedPolicy(env: NodeJS.ProcessEnv, system?: string): ManagedPolicy | null {
  const found = managedPolicyPaths(env, system).flatMap(({ path, required }) => {
    const p = loadManagedFile(path, required);
    return p ? [p] : [];
  });
  return combineManaged(found);
}
