// `threshold classify`: what a shell command can do, for people (one command) and for tools (--jsonl).
import { parseArgs } from 'node:util';
import { classifyCommand, initClassifier, type Classification } from '../policy/classifier';
import { readNetworkFile } from '../gate/network-files';
import { describeHost } from '../policy/classifier/network/types';
import { mapJsonLines } from './jsonl';
import { pathContextFor, realDir, UsageError, type CliIo } from './context';

export function classificationJson(c: Classification) {
  return {
    class: c.class,
    hardline: c.hardline,
    flags: c.flags,
    effects: c.effects,
    segments: c.segments.map((s) => ({
      text: s.text,
      argv: s.argv,
      program: s.program,
      class: s.class,
      effects: s.effects,
      reasons: s.reasons,
      via: s.via,
      literal: s.literal,
      substitution: s.substitution,
      dynamic: s.dynamic,
      redirects: s.redirects,
      hardline: s.hardline,
      network: s.network,
    })),
    reasons: c.reasons,
  };
}

export async function classifyCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { jsonl: { type: 'boolean' }, workspace: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
  });
  const workspace = realDir(values.workspace ?? io.cwd);
  const ctx = pathContextFor(workspace, io.env);
  await initClassifier();
  if (values.jsonl) {
    if (positionals.length) throw new UsageError('classify --jsonl reads commands from standard input; give no command argument.');
    await mapJsonLines(io.stdin, io.stdout, (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v) || typeof (v as { cmd?: unknown }).cmd !== 'string') {
        return { error: 'expected an object with a string field "cmd"' };
      }
      return classificationJson(classifyCommand((v as { cmd: string }).cmd, { ctx, readText: readNetworkFile }));
    });
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('usage: threshold classify "<command>"   or   threshold classify --jsonl < commands.jsonl');
  const command = positionals[0]!;
  const c = classifyCommand(command, { ctx, readText: readNetworkFile });
  if (values.json) {
    io.stdout.write(JSON.stringify(classificationJson(c), null, 2) + '\n');
    return 0;
  }
  io.stdout.write(renderClassification(command, c));
  return 0;
}

export function renderClassification(command: string, c: Classification): string {
  const lines: string[] = [];
  lines.push(`command: ${command}`);
  lines.push(`class:   ${c.class}${c.hardline ? '  (HARDLINE: never runs)' : ''}`);
  lines.push(`flags:   ${c.flags.length ? c.flags.join(', ') : 'none'}`);
  lines.push(`effects: ${c.effects.join(', ')}`);
  lines.push('segments:');
  c.segments.forEach((s, i) => {
    const via = s.via.length ? `  [via ${s.via.join(' → ')}]` : '';
    lines.push(`  ${i + 1}. ${s.class.padEnd(11)} ${oneLine(s.text)}${via}`);
    for (const r of s.reasons) lines.push(`       - ${r}`);
    for (const u of s.network) lines.push(`       network: ${u.kind} · ${u.hosts.map(describeHost).join(', ')} (${u.reason})`);
  });
  if (c.segments.length === 0) lines.push('  (none)');
  const flagReasons = c.reasons.filter((r) => /^(parse error|unknown syntax|obfuscation|substitution|redirection|background|dynamic):/.test(r));
  if (flagReasons.length) {
    lines.push('notes:');
    for (const r of flagReasons) lines.push(`  - ${r}`);
  }
  return lines.join('\n') + '\n';
}

function oneLine(s: string): string {
  const t = s.replace(/\s*\n\s*/g, ' ⏎ ');
  return t.length > 100 ? t.slice(0, 99) + '…' : t;
}
