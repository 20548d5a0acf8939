// Line-oriented JSON in, JSON out: one output line per input line, in order, never a crash on bad input.
// Lines end at "\n" (a "\r\n" ending loses its "\r"). A lone "\r" stays inside its line (readline split
// there, so one input line could get two answers and every later answer was off by one).
import { StringDecoder } from 'node:string_decoder';

export async function mapJsonLines(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handle: (value: unknown) => unknown,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const answer = async (raw: string) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!output.write(JSON.stringify(answerLine(line, handle)) + '\n')) await new Promise((r) => output.once('drain', r));
  };
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      await answer(line);
    }
  }
  pending += decoder.end();
  if (pending !== '') await answer(pending);
}

function answerLine(line: string, handle: (value: unknown) => unknown): unknown {
  if (line.trim() === '') return { error: 'empty line: expected one JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { error: `not valid JSON: ${(err as Error).message}` };
  }
  try {
    return handle(value);
  } catch (err) {
    return { error: `could not process this line: ${(err as Error).message}` };
  }
}
