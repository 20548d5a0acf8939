import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test/support/cli';
import { mapJsonLines } from './jsonl';

async function answers(chunks: (string | Buffer)[]): Promise<unknown[]> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  await mapJsonLines(Readable.from(chunks), out, (v) => ({ echo: v }));
  return text.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
}

describe('JSON lines: one answer per input line, split only at "\\n"', () => {
  it.each([
    { name: 'a lone CR inside a line does not split it', chunks: ['{"a":1}\r{"b":2}\n{"c":3}\n'], expected: [{ error: expect.stringMatching(/^not valid JSON: Unexpected non-whitespace character after JSON/) }, { echo: { c: 3 } }] },
    { name: 'a lone CR inside a string stays in the line (and is a JSON error there)', chunks: ['{"a":"x\ry"}\n{"b":2}\n'], expected: [{ error: expect.stringMatching(/^not valid JSON: Bad control character/) }, { echo: { b: 2 } }] },
    { name: 'CRLF endings lose their CR', chunks: ['{"a":1}\r\n{"b":2}\r\n'], expected: [{ echo: { a: 1 } }, { echo: { b: 2 } }] },
    { name: 'a last line without a newline is answered', chunks: ['{"a":1}\n{"b":2}'], expected: [{ echo: { a: 1 } }, { echo: { b: 2 } }] },
    { name: 'a line split across chunks is one line', chunks: ['{"a"', ':1}\n'], expected: [{ echo: { a: 1 } }] },
    { name: 'a UTF-8 character split across chunks is decoded whole', chunks: [Buffer.from('{"a":"é"}\n').subarray(0, 7), Buffer.from('{"a":"é"}\n').subarray(7)], expected: [{ echo: { a: 'é' } }] },
    { name: 'an empty line gets an error line', chunks: ['{"a":1}\n\n{"b":2}\n'], expected: [{ echo: { a: 1 } }, { error: 'empty line: expected one JSON object' }, { echo: { b: 2 } }] },
  ])('$name', async ({ chunks, expected }) => {
    expect(await answers(chunks)).toEqual(expected);
  });
});

describe('a closed output pipe ends the CLI quietly', () => {
  it('classify --jsonl whose reader goes away after one line exits 0 with nothing on stderr', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'threshold.js'), 'classify', '--jsonl'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Close our end of stdout at the first answer, while more input keeps coming.
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.on('error', () => undefined);
    const line = '{"cmd":"ls -la"}\n'.repeat(2000);
    const feed = setInterval(() => child.stdin.write(line), 5);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    clearInterval(feed);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }, 60_000);
});
