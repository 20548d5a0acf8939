// Demo mode's model: a scripted stand-in, labelled "Demo: scripted model" wherever it shows, that walks
// one realistic session so a new user sees the gate without an API key: list a folder, read a file, run a
// read-only command, then write a file and run a command that need approval. Everything else — gate,
// store, jail — is real. The script advances by how many tool results the conversation holds.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const DEMO_LABEL = 'Demo: scripted model';
export const DEMO_PROMPT = 'Show me around this folder, then write a short summary and stage it for the build.';

interface DemoStep {
  text: string;
  call?: { name: string; input: Record<string, unknown> };
}

const STEPS: DemoStep[] = [
  { text: "I'll start by looking at what is in the workspace.", call: { name: 'list_dir', input: { path: '.' } } },
  { text: 'There is a README; reading it.', call: { name: 'read_file', input: { path: 'README.md' } } },
  { text: 'Counting lines is read-only, so it runs without asking.', call: { name: 'run_command', input: { command: 'wc -l README.md notes/todo.md' } } },
  { text: 'Now I will write a summary. Writing a file needs your approval at the supervised level.', call: { name: 'write_file', input: { path: 'SUMMARY.md', content: '# Summary\n\nA small demo project: a README, a to-do list and one script.\n' } } },
  { text: 'Staging it for the build also changes the workspace, so it asks too; it runs jailed.', call: { name: 'run_command', input: { command: 'mkdir -p build && cp SUMMARY.md build/ && ls build' } } },
  { text: 'That is the tour: reads ran freely, changes waited for you, and everything is in the approval history (threshold ctl history).' },
];

const USAGE: LanguageModelV3Usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

/** Results that say a call never ran because Threshold stopped: the tour makes such a call again. */
const NOT_RUN = /^Threshold (shut down|stopped)/;

/**
 * The first step of the tour whose call has no result yet (a call that only got a "Threshold stopped"
 * result counts as not made, so after a restart the tour picks up where it was). Once the tour is over,
 * a new message gets a word about what the demo can do.
 */
function stepFor(options: LanguageModelV3CallOptions): DemoStep {
  const calls = new Map<string, string>();
  const done = new Set<string>();
  for (const m of options.prompt) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') calls.set(p.toolCallId, `${p.toolName} ${typeof p.input === 'string' ? p.input : JSON.stringify(p.input)}`);
    if (m.role === 'tool')
      for (const p of m.content) {
        if (p.type !== 'tool-result') continue;
        const text = p.output.type === 'text' || p.output.type === 'error-text' ? p.output.value : '';
        const key = calls.get(p.toolCallId);
        if (key && !NOT_RUN.test(text)) done.add(key);
      }
  }
  const next = STEPS.find((s) => s.call && !done.has(`${s.call.name} ${JSON.stringify(s.call.input)}`));
  if (next) return next;
  const last = options.prompt[options.prompt.length - 1];
  return last?.role === 'user' ? AFTER_TOUR : STEPS[STEPS.length - 1]!;
}

const AFTER_TOUR: DemoStep = { text: 'I am the demo\'s scripted model, so the tour is all I can do. Set up a provider (see docs/agent.md) to talk to a real model.' };

// Call ids are unique across restarts too (a provider's are): the transcript outlives the process.
let counter = 0;
const run = randomBytes(3).toString('hex');

export function createDemoModel(): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'threshold-demo',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options) {
      const step = stepFor(options);
      const content: LanguageModelV3Content[] = [{ type: 'text', text: step.text }];
      if (step.call) content.push({ type: 'tool-call', toolCallId: `demo_${run}_${++counter}`, toolName: step.call.name, input: JSON.stringify(step.call.input) });
      return { content, finishReason: { unified: step.call ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
    },
    async doStream(options) {
      const step = stepFor(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }];
      for (const word of step.text.split(/(?<= )/)) parts.push({ type: 'text-delta', id: 't', delta: word });
      parts.push({ type: 'text-end', id: 't' });
      if (step.call) parts.push({ type: 'tool-call', toolCallId: `demo_${run}_${++counter}`, toolName: step.call.name, input: JSON.stringify(step.call.input) });
      parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: step.call ? 'tool-calls' : 'stop', raw: undefined } });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async start(controller) {
            for (const p of parts) {
              controller.enqueue(p);
              // A little pacing, so streaming shows in the UI.
              if (p.type === 'text-delta') await new Promise((r) => setTimeout(r, 15));
            }
            controller.close();
          },
        }),
      };
    },
  };
}

/** The demo's folder: beside the data directory (never inside it: the agent may not touch Threshold's own data). */
export function demoWorkspaceFor(dataDir: string): string {
  const dir = join(dirname(dataDir), `${basename(dataDir)}-demo-workspace`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return ensureDemoWorkspace(dir);
}

/** A small project to tour, created once when no workspace is given. */
export function ensureDemoWorkspace(dir: string): string {
  if (existsSync(join(dir, 'README.md'))) return dir;
  mkdirSync(join(dir, 'notes'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# Demo project\n\nThis folder was created by Threshold\'s demo mode.\nIt holds a to-do list and a small script.\n');
  writeFileSync(join(dir, 'notes', 'todo.md'), '- [ ] read the README\n- [ ] write a summary\n- [ ] stage it for the build\n');
  writeFileSync(join(dir, 'src', 'hello.sh'), '#!/bin/sh\necho "hello from the demo"\n');
  return dir;
}
