// The packet a reviewer reads: the tool, its toolset, the budget line, the user's request (their own words
// only), the arguments, and for commands the classifier's analysis. Every value a model or the world
// wrote sits inside an <untrusted> fence; the labels around them are Threshold's. A value that spells a
// fence tag is refused, and a field over 2,000 characters escalates: it is never cut, because the part a
// cut hides is the part an attacker chooses. Refusals are values naming the field.
import type { Class, Effect } from '../../common/domain';
import { fence, forgesFence } from './fence';

export const MAX_FIELD_CHARS = 2000;

export interface CommandAnalysis {
  class: Class;
  effects: readonly Effect[];
  cwd: string;
  envKeys: readonly string[];
  segments: readonly { argv: readonly string[]; class: Class; effects: readonly Effect[] }[];
}

export interface PacketInput {
  tool: string;
  /** "built-in" or the MCP server's toolset (mcp.<server>). */
  toolset: string;
  budget: { number: number; max: number };
  /** The user's request and follow-ups, in order. */
  request: readonly string[];
  args: unknown;
  command: CommandAnalysis | null;
}

export type PacketResult = { ok: true; text: string } | { ok: false; path: 'field_too_large' | 'fence_forgery'; field: string; detail: string };

class Refused {
  constructor(readonly result: Extract<PacketResult, { ok: false }>) {}
}

/** Checks one value and fences it. */
function field(name: string, value: string): string {
  if (forgesFence(value)) throw new Refused({ ok: false, path: 'fence_forgery', field: name, detail: `${name} holds text that spells the <untrusted> fence, so it was not shown to the reviewer` });
  if ([...value].length > MAX_FIELD_CHARS) throw new Refused({ ok: false, path: 'field_too_large', field: name, detail: `${name} is ${[...value].length} characters, over the ${MAX_FIELD_CHARS} a reviewer is shown whole` });
  return fence(value);
}

/** Threshold's own words around the fences still pass the check: a tool or variable name is not trusted for being short. */
function plain(name: string, value: string): string {
  if (forgesFence(value) || !/^[\w.:@/-]{1,128}$/.test(value)) throw new Refused({ ok: false, path: 'fence_forgery', field: name, detail: `${name} is not a plain name, so it was not shown to the reviewer` });
  return value;
}

function valueText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

export function buildPacket(p: PacketInput): PacketResult {
  try {
    const lines: string[] = [];
    lines.push(`Tool: ${plain('tool', p.tool)} (toolset: ${plain('toolset', p.toolset)})`);
    lines.push(`Budget: review ${p.budget.number} of ${p.budget.max} this turn`);
    lines.push('');
    lines.push("The user's request, in their own words (the first message, then what they added while the turn ran):");
    p.request.forEach((r, i) => lines.push(`${i + 1}. ${field(`request[${i}]`, r)}`));
    lines.push('');
    lines.push('The arguments, as the agent under review wrote them:');
    const entries = p.args !== null && typeof p.args === 'object' && !Array.isArray(p.args) ? Object.entries(p.args as Record<string, unknown>) : [['(value)', p.args] as const];
    if (entries.length === 0) lines.push('(none)');
    for (const [k, v] of entries) lines.push(`- ${field(`arguments key ${JSON.stringify(k).slice(0, 40)}`, k)}: ${field(`arguments.${k}`, valueText(v))}`);
    if (p.command) {
      const c = p.command;
      lines.push('');
      lines.push("Threshold's analysis of the command:");
      lines.push(`Class: ${c.class}; effects: ${c.effects.join(', ') || 'none'}`);
      lines.push(`Working directory: ${field('cwd', c.cwd)}`);
      lines.push(`Environment variable names: ${c.envKeys.map((k) => plain('environment variable name', k)).join(', ') || '(none)'}`);
      c.segments.forEach((s, i) => lines.push(`Segment ${i + 1} (class ${s.class}; effects ${s.effects.join(', ') || 'none'}): argv ${field(`segments[${i}].argv`, JSON.stringify(s.argv))}`));
    }
    return { ok: true, text: lines.join('\n') };
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}
