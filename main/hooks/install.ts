// Threshold's hook in another agent's settings file, added or removed without touching anything else in
// it. Pure: text in, text out, with what changed. A file that is not a JSON object is refused, never
// rewritten; an entry already there is not added twice; uninstall removes exactly the hook entries that
// run `threshold hook <agent>` (and a group or event left empty by that), nothing else.
import { EXTERNAL_AGENT_NAMES, type ExternalAgent } from '../../common/external-agents';

/** The events each agent's hook answers, as that agent names them. */
export const HOOK_EVENTS: Readonly<Record<ExternalAgent, readonly string[]>> = {
  'claude-code': ['PreToolUse'],
  codex: ['PreToolUse', 'PermissionRequest'],
  gemini: ['BeforeTool'],
};

/** How long the agent lets the hook run: longer than the hook waits for a person (main/hooks/client.ts), so the hook answers first. */
export const AGENT_HOOK_TIMEOUT_SECONDS = 630;

export type Plan = { ok: true; text: string; changed: boolean; summary: string } | { ok: false; problem: string };

type Json = Record<string, unknown>;

/** Whether a hook entry is Threshold's for this agent: its command runs `threshold … hook <agent>`. */
export function isOurs(entry: unknown, agent: ExternalAgent): boolean {
  const command = entry && typeof entry === 'object' ? (entry as Json)['command'] : null;
  if (typeof command !== 'string') return false;
  return new RegExp(`(^|[\\s'"/])threshold(\\.js)?['"]?\\s+hook\\s+${agent}(\\s|$)`).test(command);
}

function entryFor(agent: ExternalAgent, command: string): Json {
  switch (agent) {
    case 'gemini':
      // Gemini CLI's hook timeout is in milliseconds.
      return { name: 'threshold', type: 'command', command, timeout: AGENT_HOOK_TIMEOUT_SECONDS * 1000, description: 'Threshold: every tool call crosses its approval gate' };
    default:
      return { type: 'command', command, timeout: AGENT_HOOK_TIMEOUT_SECONDS };
  }
}

const MATCHER: Record<ExternalAgent, string> = { 'claude-code': '*', codex: '*', gemini: '.*' };

function parse(text: string | null, file: string): { ok: true; value: Json } | { ok: false; problem: string } {
  if (text === null || text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `${file} is not valid JSON (${(err as Error).message}); Threshold does not rewrite a file it cannot read. Fix it, or add the hook by hand (--print shows it).` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: `${file} does not hold a JSON object; Threshold does not rewrite it.` };
  return { ok: true, value: value as Json };
}

function eventsOf(settings: Json, file: string): { ok: true; hooks: Json } | { ok: false; problem: string } {
  const hooks = settings['hooks'];
  if (hooks === undefined) return { ok: true, hooks: {} };
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return { ok: false, problem: `${file}: "hooks" is not an object; Threshold does not rewrite it.` };
  return { ok: true, hooks: hooks as Json };
}

function serialise(settings: Json): string {
  return JSON.stringify(settings, null, 2) + '\n';
}

/** Adds Threshold's hook for every event the agent has, unless each already has it. */
export function planInstall(agent: ExternalAgent, text: string | null, file: string, command: string): Plan {
  const parsed = parse(text, file);
  if (!parsed.ok) return parsed;
  const settings = parsed.value;
  const events = eventsOf(settings, file);
  if (!events.ok) return events;
  const hooks = { ...events.hooks };
  const added: string[] = [];
  const kept: string[] = [];
  for (const event of HOOK_EVENTS[agent]) {
    const groups = hooks[event];
    if (groups !== undefined && !Array.isArray(groups)) return { ok: false, problem: `${file}: hooks.${event} is not a list; Threshold does not rewrite it.` };
    const list = (groups as unknown[] | undefined) ?? [];
    const present = list.some((g) => g && typeof g === 'object' && Array.isArray((g as Json)['hooks']) && ((g as Json)['hooks'] as unknown[]).some((h) => isOurs(h, agent)));
    if (present) {
      kept.push(event);
      continue;
    }
    hooks[event] = [...list, { matcher: MATCHER[agent], hooks: [entryFor(agent, command)] }];
    added.push(event);
  }
  if (!added.length) return { ok: true, text: text ?? '', changed: false, summary: `${EXTERNAL_AGENT_NAMES[agent]}'s ${kept.join(' and ')} hook already runs Threshold in ${file}; nothing changed.` };
  const next = serialise({ ...settings, hooks });
  return { ok: true, text: next, changed: true, summary: `Added Threshold's ${added.join(' and ')} hook to ${file}${kept.length ? ` (${kept.join(' and ')} already had it)` : ''}.` };
}

/** Removes exactly Threshold's hook entries for this agent (and a group or event list they leave empty). */
export function planUninstall(agent: ExternalAgent, text: string | null, file: string): Plan {
  if (text === null) return { ok: true, text: '', changed: false, summary: `${file} does not exist; nothing to remove.` };
  const parsed = parse(text, file);
  if (!parsed.ok) return parsed;
  const settings = parsed.value;
  const events = eventsOf(settings, file);
  if (!events.ok) return events;
  const hooks: Json = { ...events.hooks };
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const next: unknown[] = [];
    for (const g of groups) {
      const list = g && typeof g === 'object' && Array.isArray((g as Json)['hooks']) ? ((g as Json)['hooks'] as unknown[]) : null;
      if (!list) {
        next.push(g);
        continue;
      }
      const others = list.filter((h) => !isOurs(h, agent));
      removed += list.length - others.length;
      if (others.length === list.length) next.push(g);
      else if (others.length) next.push({ ...(g as Json), hooks: others });
    }
    if (next.length) hooks[event] = next;
    else delete hooks[event];
  }
  if (!removed) return { ok: true, text, changed: false, summary: `${file} has no Threshold hook for ${EXTERNAL_AGENT_NAMES[agent]}; nothing to remove.` };
  const rest = { ...settings };
  if (Object.keys(hooks).length) rest['hooks'] = hooks;
  else delete rest['hooks'];
  return { ok: true, text: serialise(rest), changed: true, summary: `Removed ${removed} Threshold hook entr${removed === 1 ? 'y' : 'ies'} from ${file}.` };
}

/** A unified-style view of what a plan changes, for --print: removed lines with -, added with +. */
export function describeChange(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - 2);
  const lines = [...a.slice(from, start).map((l) => `  ${l}`), ...a.slice(start, endA + 1).map((l) => `- ${l}`), ...b.slice(start, endB + 1).map((l) => `+ ${l}`), ...a.slice(endA + 1, endA + 3).map((l) => `  ${l}`)];
  return lines.join('\n');
}
