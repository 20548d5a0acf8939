// Redaction: everything persisted, logged, broadcast or put in a notification passes through here first.
// Secrets are found by secretlint's recommended rules, by the app's own known keys, by well-known key
// formats and key=value contexts, and by entropy; e-mail addresses are masked and the home directory
// becomes ~. A hit always hides the whole token that contains it, never part of it.
//
// What this module returns is branded `Redacted<T>`, and only this module can brand a value: the store's
// repositories require the brand on every input that holds user or model text, so text that skipped
// redaction is a compile error where it would be stored, not a reviewer's catch in each caller.
import { lintSource } from '@secretlint/core';
import type { GrantPattern } from '../../common/domain';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { MAX_WALK_DEPTH } from '../../common/nesting';

/** What stands in for a part of a value nested deeper than any walk goes. */
export const TOO_DEEP = `[REDACTED:nested deeper than ${MAX_WALK_DEPTH} levels]`;

declare const REDACTED: unique symbol;
/** A value that has passed through the redactor. Made only here; required by main/store's inputs. */
export type Redacted<T> = T & { readonly [REDACTED]: true };

const brand = <T>(value: T): Redacted<T> => value as Redacted<T>;

/** A prefix of redacted text is still redacted (a marker cut short hides as much as the whole one). */
export function clip(text: Redacted<string>, max: number): Redacted<string> {
  return brand(text.length > max ? text.slice(0, max) : text);
}

/** The JSON of a redacted value: its strings were redacted, and JSON adds none of its own. */
export function redactedJson(value: Redacted<unknown>): Redacted<string> {
  return brand(JSON.stringify(value));
}

export interface RedactorOptions {
  home: string;
  /** Values the app itself holds (provider API keys): always redacted wherever they appear. */
  knownSecrets?: readonly string[];
}

interface Hit {
  start: number;
  end: number;
  label: string;
}

/** Key formats, each hiding the whole match. */
const FORMATS: { label: string; re: RegExp }[] = [
  { label: 'private-key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g },
  { label: 'aws-access-key', re: /\b(AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g },
  { label: 'github-token', re: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g },
  { label: 'anthropic-key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { label: 'openai-key', re: /\bsk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { label: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { label: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { label: 'stripe-key', re: /\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}\b/g },
  { label: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { label: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { label: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: 'url-credentials', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"]+:[^\s/@'"]+@[^\s'"]+/gi },
];

/** key=value, key: value, --key value, "key": "value", Authorization: Bearer value. */
const CONTEXT = /\b([A-Za-z0-9_.-]*(?:api[_-]?key|apikey|access[_-]?key|secret|token|passwd|password|pwd|passphrase|credential|auth[_-]?token|private[_-]?key|client[_-]?secret|session[_-]?key)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?|\s+)([^\s"',;&|]{4,})/gi;
const BEARER = /\b(Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{8,})/g;
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;
const TOKEN_CANDIDATE = /[A-Za-z0-9+/=_\-.]{24,}/g;

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function looksLikeSecretToken(t: string): boolean {
  if (!/[A-Za-z]/.test(t) || !/[0-9]/.test(t)) return false;
  // Paths and dotted names are made of short, ordinary parts.
  if (t.includes('/') && t.split('/').every((p) => p.length < 24)) return false;
  if (t.includes('.') && t.split('.').every((p) => p.length < 20)) return false;
  // Hex shorter than 64 (git object ids, content hashes) is common and rarely a secret on its own.
  if (/^[0-9a-fA-F]+$/.test(t) && t.length < 64) return false;
  // Generated secrets scatter digits among letters; identifiers (VeryLongName2024) do not.
  const switches = (t.match(/[A-Za-z][0-9]|[0-9][A-Za-z]/g) ?? []).length;
  const h = entropy(t);
  return (h >= 3.8 && switches >= 4) || (t.length >= 40 && h >= 4.5);
}

/**
 * Widens [start, end) to the whole token around it: whitespace and quotes delimit tokens. A value found
 * after its key (password=…) keeps the key visible: the key name is not the secret.
 */
function widen(text: string, start: number, end: number, keyed: boolean): [number, number] {
  const delimiter = /[\s"'`]/;
  const left = keyed ? /[\s"'`=:]/ : delimiter;
  let s = start;
  let e = end;
  while (s > 0 && !left.test(text[s - 1]!)) s--;
  while (e < text.length && !delimiter.test(text[e]!)) e++;
  return [s, e];
}

export class Redactor {
  private readonly known = new Set<string>();
  private readonly home: string;
  private readonly homePattern: RegExp;

  constructor(opts: RedactorOptions) {
    this.home = opts.home.replace(/\/+$/, '');
    this.homePattern = new RegExp(this.home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(?![A-Za-z0-9._-])', 'g');
    for (const k of opts.knownSecrets ?? []) this.addKnownSecret(k);
  }

  /** Registers a value the app holds (an API key) so it is redacted wherever it appears. */
  addKnownSecret(value: string): void {
    if (value.length >= 8) this.known.add(value);
  }

  /** Full redaction, including secretlint's rules. */
  async redactText(text: string): Promise<Redacted<string>> {
    if (text === '') return brand(text);
    const hits = this.patternHits(text);
    for (const h of await secretlintHits(text)) hits.push(h);
    return brand(this.apply(text, hits));
  }

  /** Redaction without secretlint, for synchronous paths (log lines, audit data). */
  redactTextSync(text: string): Redacted<string> {
    return brand(text === '' ? text : this.apply(text, this.patternHits(text)));
  }

  /** Redacts every string inside a JSON-like value, object keys included (a key can carry a secret too). */
  async redactValue<T>(value: T): Promise<Redacted<T>> {
    return brand(await this.walk(value, (t) => this.redactText(t)));
  }

  redactValueSync<T>(value: T): Redacted<T> {
    return brand(this.walkSync(value, (t) => this.redactTextSync(t)));
  }

  /**
   * A record for storage (an audit entry's data): every field redacted except those named in `verbatim`,
   * which must hold no text a person or model wrote (content hashes: 64 hex digits look like a secret).
   */
  redactRecord<T extends Record<string, unknown>>(value: T, verbatim: readonly (keyof T & string)[] = []): Redacted<T> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = verbatim.includes(k) ? v : this.redactValueSync(v);
    return brand(out as T);
  }

  /**
   * A grant pattern as stored: one that holds a secret is refused (a grant is matched as written, so a
   * redacted one would be a different grant). The home folder becomes ~ where matching reads ~ back
   * (path and redirect globs); argv tokens are compared literally and stay as they are.
   */
  redactGrantPattern(p: GrantPattern): { ok: true; pattern: Redacted<GrantPattern> } | { ok: false; message: string } {
    if (this.redactTextSync(JSON.stringify(p)).includes('[REDACTED:')) return { ok: false, message: 'A grant must not contain a secret: it is stored as written.' };
    const fold = (glob: string) => (this.home && this.home !== '/' && (glob === this.home || glob.startsWith(this.home + '/')) ? '~' + glob.slice(this.home.length) : glob);
    if (p.kind === 'path') return { ok: true, pattern: brand({ ...p, glob: fold(p.glob) }) };
    if (p.kind === 'argv' && p.redirects) return { ok: true, pattern: brand({ ...p, redirects: p.redirects.map(fold) }) };
    return { ok: true, pattern: brand(p) };
  }

  // Depth-limited: what lies deeper than any walk goes is replaced by a marker (hostile input cannot overflow the stack).
  private async walk<T>(value: T, text: (t: string) => Promise<string>, depth = 0): Promise<T> {
    if (typeof value === 'string') return (await text(value)) as T;
    if (value && typeof value === 'object' && depth >= MAX_WALK_DEPTH) return TOO_DEEP as T;
    if (Array.isArray(value)) return (await Promise.all(value.map((v) => this.walk(v, text, depth + 1)))) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[this.redactTextSync(k)] = await this.walk(v, text, depth + 1);
      return out as T;
    }
    return value;
  }

  private walkSync<T>(value: T, text: (t: string) => string, depth = 0): T {
    if (typeof value === 'string') return text(value) as T;
    if (value && typeof value === 'object' && depth >= MAX_WALK_DEPTH) return TOO_DEEP as T;
    if (Array.isArray(value)) return value.map((v) => this.walkSync(v, text, depth + 1)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[this.redactTextSync(k)] = this.walkSync(v, text, depth + 1);
      return out as T;
    }
    return value;
  }

  private patternHits(text: string): Hit[] {
    const hits: Hit[] = [];
    for (const k of this.known) {
      let at = text.indexOf(k);
      while (at !== -1) {
        hits.push({ start: at, end: at + k.length, label: 'known-key' });
        at = text.indexOf(k, at + k.length);
      }
    }
    for (const { label, re } of FORMATS) {
      for (const m of text.matchAll(re)) hits.push({ start: m.index, end: m.index + m[0].length, label });
    }
    for (const m of text.matchAll(CONTEXT)) {
      const value = m[3]!;
      if (/^\[REDACTED/.test(value) || /^\$\{?\w+\}?$/.test(value)) continue;
      const start = m.index + m[1]!.length + m[2]!.length;
      hits.push({ start, end: start + value.length, label: 'secret' });
    }
    for (const m of text.matchAll(BEARER)) {
      const start = m.index + m[1]!.length + 1;
      hits.push({ start, end: start + m[2]!.length, label: 'credential' });
    }
    for (const m of text.matchAll(TOKEN_CANDIDATE)) {
      if (looksLikeSecretToken(m[0])) hits.push({ start: m.index, end: m.index + m[0].length, label: 'high-entropy' });
    }
    return hits;
  }

  private apply(text: string, hits: Hit[]): string {
    // Widen each hit to its whole token, merge overlaps, then replace from the end.
    const spans = hits
      .map((h) => {
        const multiline = h.label === 'private-key';
        const [s, e] = multiline ? [h.start, h.end] : widen(text, h.start, h.end, h.label === 'secret' || h.label === 'credential');
        return { start: s, end: e, label: h.label };
      })
      .sort((a, b) => a.start - b.start);
    const merged: Hit[] = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
      else merged.push({ ...s });
    }
    let out = text;
    for (let i = merged.length - 1; i >= 0; i--) {
      const h = merged[i]!;
      out = out.slice(0, h.start) + `[REDACTED:${h.label}]` + out.slice(h.end);
    }
    out = out.replace(EMAIL, '[email]');
    if (!this.home || this.home === '/') return out;
    // Only the home folder itself, not /home/adam when home is /home/ada.
    return out.replace(this.homePattern, '~');
  }
}

// secretlint marks every scan on a process-wide profiler that keeps each mark forever and searches them
// all on every new one: a long-running process slowed down scan after scan (and its event loop with it).
// Threshold never reads the profile, so the profiler does not mark.
secretLintProfiler.mark = () => undefined;

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

async function secretlintHits(text: string): Promise<Hit[]> {
  const result = await lintSource({ source: { content: text, filePath: '/threshold/redact.txt', ext: '.txt', contentType: 'text' }, options: { config: SECRETLINT_CONFIG } });
  return result.messages.map((m) => ({ start: m.range[0], end: m.range[1], label: m.ruleId.replace('@secretlint/secretlint-rule-', '') }));
}

/** Error text for records: one line, redacted, at most 512 characters. */
export function sanitiseErrorText(redactor: Redactor, text: string): Redacted<string> {
  const one = redactor.redactTextSync(text).replace(/\s+/g, ' ').trim();
  return brand(one.length > 512 ? one.slice(0, 511) + '…' : one);
}
