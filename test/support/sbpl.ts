// A small interpreter for the part of Apple's sandbox profile language (SBPL) that the macOS jail's
// profile uses, so its rules can be tested as decisions ("may a write call create .git/hooks/x?")
// without a Mac. It knows only what executor/jail/seatbelt.ts writes and throws on anything else.
//
// Assumptions, from the peers' profiles and their notes (not yet checked on a Mac by us):
// - `literal` and `subpath` compare the path the way the default macOS file system compares names
//   (case-insensitively); `regex` matches the path as the command spelled it, case and all.
// - Which rule wins when several match is modelled two ways, and the tests ask for the same answer
//   under both: "last-match" (the later rule wins) and "specific-first" (a rule naming the operation
//   itself beats one naming it by a wildcard such as file-write*, whatever their order; among equals,
//   the later one wins), which is what @anthropic-ai/sandbox-runtime's notes report seeing.
// - Whether a hard link or a clone counts as a write of the new name (file-write*) is not documented;
//   `linkIsWrite` models the case where it does, and the tests ask for the same answer either way.
export type Sexp = string | { str: string } | Sexp[];

export function parseSbpl(text: string): Sexp[] {
  let i = 0;
  const out: Sexp[] = [];
  const stack: Sexp[][] = [out];
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (/\s/.test(ch)) i++;
    else if (ch === '(') {
      const list: Sexp[] = [];
      stack[stack.length - 1]!.push(list);
      stack.push(list);
      i++;
    } else if (ch === ')') {
      if (stack.length === 1) throw new Error(`unbalanced ) at ${i}`);
      stack.pop();
      i++;
    } else if (ch === '"' || (ch === '#' && text[i + 1] === '"')) {
      const raw = ch === '#';
      i += raw ? 2 : 1;
      let s = '';
      while (i < text.length && text[i] !== '"') {
        if (!raw && text[i] === '\\') {
          const next = text[i + 1];
          if (next !== '\\' && next !== '"') throw new Error(`unknown escape \\${next} at ${i}`);
          s += next;
          i += 2;
        } else s += text[i++];
      }
      if (text[i] !== '"') throw new Error('unterminated string');
      i++;
      stack[stack.length - 1]!.push({ str: s });
    } else {
      let sym = '';
      while (i < text.length && !/[\s()";]/.test(text[i]!)) sym += text[i++];
      stack[stack.length - 1]!.push(sym);
    }
  }
  if (stack.length !== 1) throw new Error('unbalanced (');
  return out;
}

export interface SbplRequest {
  op: string;
  /** The real path (literal and subpath compare it without regard to case). */
  path?: string;
  /** The path as the command spelled it (regex sees this); the real path when absent. */
  spelled?: string;
  vnode?: 'CHARACTER-DEVICE' | 'REGULAR-FILE' | 'DIRECTORY';
  extensions?: string[];
  remote?: { host: string; port: number };
  sysctl?: string;
  service?: string;
  ipcName?: string;
  /** For signal and process-info: whether the target runs under the same sandbox. */
  sameSandbox?: boolean;
}

export type Precedence = 'last-match' | 'specific-first';

interface Rule {
  action: 'allow' | 'deny';
  ops: string[];
  filters: Sexp[];
  index: number;
}

function str(x: Sexp | undefined): string {
  if (x && typeof x === 'object' && !Array.isArray(x)) return x.str;
  throw new Error(`expected a string, got ${JSON.stringify(x)}`);
}

const lower = (s: string) => s.toLowerCase();

function filterMatches(f: Sexp, r: SbplRequest): boolean {
  if (!Array.isArray(f) || typeof f[0] !== 'string') throw new Error(`not a filter: ${JSON.stringify(f)}`);
  const [name, ...args] = f as [string, ...Sexp[]];
  switch (name) {
    case 'literal':
      return r.path !== undefined && lower(r.path) === lower(str(args[0]));
    case 'subpath': {
      const p = lower(str(args[0]));
      return r.path !== undefined && (lower(r.path) === p || lower(r.path).startsWith(p === '/' ? '/' : p + '/'));
    }
    case 'regex':
      return new RegExp(str(args[0])).test(r.spelled ?? r.path ?? '\0');
    case 'require-all':
      return args.every((a) => filterMatches(a, r));
    case 'require-any':
      return args.some((a) => filterMatches(a, r));
    case 'require-not':
      return !filterMatches(args[0]!, r);
    case 'vnode-type':
      return r.vnode === args[0];
    case 'extension':
      return (r.extensions ?? []).includes(str(args[0]));
    case 'remote': {
      if (args[0] !== 'ip' || !r.remote) return false;
      const [host, port] = str(args[1]).split(/:(?=[^:]*$)/) as [string, string];
      if (host !== 'localhost' && host !== '*') throw new Error(`Seatbelt accepts only localhost or * as the host, not ${host}`);
      const hostOk = host === '*' || ['127.0.0.1', '::1', 'localhost'].includes(r.remote.host);
      return hostOk && (port === '*' || Number(port) === r.remote.port);
    }
    case 'sysctl-name':
      return r.sysctl === str(args[0]);
    case 'sysctl-name-prefix':
      return r.sysctl !== undefined && r.sysctl.startsWith(str(args[0]));
    case 'global-name':
      return r.service === str(args[0]);
    case 'ipc-posix-name-regex':
      return r.ipcName !== undefined && new RegExp(str(args[0])).test(r.ipcName);
    case 'target':
      if (args[0] !== 'same-sandbox') throw new Error(`unknown target ${String(args[0])}`);
      return r.sameSandbox === true;
    default:
      throw new Error(`filter the interpreter does not know: ${name}`);
  }
}

/** Every rule of a profile, checked for shape. */
export function rulesOf(profile: string): { version: number; rules: Rule[] } {
  const forms = parseSbpl(profile);
  let version = 0;
  const rules: Rule[] = [];
  for (const form of forms) {
    if (!Array.isArray(form) || typeof form[0] !== 'string') throw new Error(`top-level form is not a rule: ${JSON.stringify(form)}`);
    if (form[0] === 'version') {
      version = Number(form[1]);
      continue;
    }
    if (form[0] !== 'allow' && form[0] !== 'deny') throw new Error(`unknown form ${form[0]}`);
    const ops: string[] = [];
    const filters: Sexp[] = [];
    for (const x of form.slice(1)) {
      if (typeof x === 'string') ops.push(x);
      else filters.push(x);
    }
    if (!ops.length) throw new Error(`a rule without an operation: ${JSON.stringify(form)}`);
    rules.push({ action: form[0], ops, filters, index: rules.length });
  }
  return { version, rules };
}

function opMatches(pattern: string, op: string, linkIsWrite: boolean): 'exact' | 'wildcard' | null {
  if (pattern === op) return 'exact';
  if (pattern === 'default') return null;
  if (pattern.endsWith('*') && op.startsWith(pattern.slice(0, -1))) return 'wildcard';
  if (linkIsWrite && pattern === 'file-write*' && (op === 'file-link' || op === 'file-clone')) return 'wildcard';
  return null;
}

/** What the profile decides for one request. */
export function decide(profile: string, r: SbplRequest, precedence: Precedence, o: { linkIsWrite?: boolean } = {}): 'allow' | 'deny' {
  const { rules } = rulesOf(profile);
  let best: { rule: Rule; exact: boolean } | null = null;
  let fallback: 'allow' | 'deny' = 'deny';
  for (const rule of rules) {
    if (rule.ops.includes('default')) {
      fallback = rule.action;
      continue;
    }
    const kinds = rule.ops.map((op) => opMatches(op, r.op, !!o.linkIsWrite)).filter((k) => k !== null);
    if (!kinds.length) continue;
    // A rule's filters are alternatives: any one of them matching is enough (no filter: every request).
    if (rule.filters.length && !rule.filters.some((f) => filterMatches(f, r))) continue;
    const exact = kinds.includes('exact');
    if (!best || precedence === 'last-match' || exact || !best.exact) best = { rule, exact };
  }
  return best ? best.rule.action : fallback;
}

/** Every operation name and filter name a profile uses (to check against the names the peers' profiles use on macOS). */
export function namesUsed(profile: string): { operations: string[]; filters: string[] } {
  const { rules } = rulesOf(profile);
  const ops = new Set<string>();
  const filters = new Set<string>();
  const walk = (f: Sexp) => {
    if (!Array.isArray(f) || typeof f[0] !== 'string') return;
    filters.add(f[0]);
    for (const a of f.slice(1)) walk(a);
  };
  for (const r of rules) {
    for (const o of r.ops) ops.add(o);
    for (const f of r.filters) walk(f);
  }
  return { operations: [...ops].sort(), filters: [...filters].sort() };
}
