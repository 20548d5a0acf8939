// What a grant would cover, before the person makes it: the card's own call, examples generated from
// the pattern (a longer command it still covers; a compound command, a redirection or a substitution it
// never covers) and any examples the caller gives. Judged by the gate's own matching (coverCall), so the
// preview cannot disagree with what the grant will do.
import type { Grant, GrantPattern } from '../../common/domain';
import type { z } from 'zod';
import type { grantSampleSchema } from '../../common/operations';
import { coverCall, segmentUncoverable } from '../policy/grants';
import type { PathContext } from '../policy/paths';
import { describeCall, type McpToolDeclaration } from '../policy/tools';

export type GrantSample = z.output<typeof grantSampleSchema>;

export interface PreviewInput {
  tool: string;
  patterns: GrantPattern[];
  /** The pending call's own example (its command, path or URL), shown first. */
  callText?: string | null;
  samples?: string[];
}

export function previewGrant(input: PreviewInput, ctx: PathContext, opts: { now: number; mcpTools?: Readonly<Record<string, McpToolDeclaration>> }): GrantSample[] {
  const grants: Grant[] = input.patterns.map((pattern, i) => ({ id: `preview-${i}`, tool: input.tool, pattern, scope: 'always', provenance: { source: 'user' }, createdAt: opts.now }));
  const seen = new Set<string>();
  const out: GrantSample[] = [];
  const add = (text: string, source: GrantSample['source']) => {
    if (seen.has(text)) return;
    seen.add(text);
    out.push({ text, source, ...judge(input.tool, text, grants, ctx, opts) });
  };
  if (input.callText) add(input.callText, 'call');
  for (const s of generatedSamples(input.tool, input.patterns, ctx)) add(s, 'sample');
  for (const s of input.samples ?? []) add(s, 'given');
  return out;
}

function argsFor(tool: string, text: string): Record<string, unknown> {
  if (tool === 'run_command') return { command: text };
  if (tool === 'web_fetch') return { url: text };
  if (tool === 'write_file') return { path: text, content: '' };
  if (tool === 'edit_file') return { path: text, old: 'x', new: 'y' };
  if (tool === 'search_files') return { pattern: 'x', path: text };
  return { path: text };
}

function judge(tool: string, text: string, grants: Grant[], ctx: PathContext, opts: { now: number; mcpTools?: Readonly<Record<string, McpToolDeclaration>> }): Pick<GrantSample, 'covered' | 'never' | 'reason'> {
  const described = describeCall(tool, argsFor(tool, text), { ctx, mcpTools: opts.mcpTools });
  if (!described.ok) return { covered: false, never: false, reason: described.message };
  const facts = described.facts;
  if (tool === 'run_command') {
    const blocked = facts.segments.findIndex((s) => segmentUncoverable(s) !== null);
    if (blocked !== -1) {
      const s = facts.segments[blocked]!;
      return { covered: false, never: true, reason: `Never covered by any grant: "${s.text}" ${segmentUncoverable(s)}.` };
    }
  }
  const coverage = coverCall(facts, grants, ctx, { now: opts.now, sessionId: null });
  if (coverage.covered) return { covered: true, never: false, reason: 'Covered: it would run without asking (floors and deny rules still apply).' };
  if (coverage.uncovered) {
    const s = facts.segments[coverage.uncovered.index];
    return { covered: false, never: false, reason: `Not covered: ${s ? `"${s.text}"` : 'a part of it'}: ${coverage.uncovered.why}; it would ask.` };
  }
  return { covered: false, never: false, reason: 'Not covered: it would ask.' };
}

/** Examples that show the pattern's edges: what it still covers and what it never does. */
function generatedSamples(tool: string, patterns: GrantPattern[], ctx: PathContext): string[] {
  const out: string[] = [];
  for (const p of patterns) {
    switch (p.kind) {
      case 'argv': {
        const base = p.argv.map(quoteToken).join(' ');
        out.push(`${base} -- --watch`, `${base}; rm -rf x`, `${base} && curl https://example.com/`, `${base} > out.txt`, `${base} $(cat secret.txt)`);
        break;
      }
      case 'path': {
        const concrete = p.glob.replace(/\*\*\/?/g, 'sub/').replace(/\*/g, 'example').replace(/\?/g, 'x');
        out.push(concrete, `${ctx.home}/.ssh/id_ed25519`, '../outside.txt');
        break;
      }
      case 'url':
        out.push(`${p.prefix}page`, 'https://example.org/elsewhere');
        break;
      case 'tool':
        if (tool === 'write_file' || tool === 'edit_file' || tool === 'read_file') out.push('notes.txt', `${ctx.home}/.ssh/id_ed25519`);
        break;
    }
  }
  return out;
}

/** A pattern token as a shell word: patterns with * stay as written (the example shows the shape). */
function quoteToken(t: string): string {
  return /^[\w@%+=:,./*?-]+$/.test(t) ? t : `'${t.replace(/'/g, `'\\''`)}'`;
}
