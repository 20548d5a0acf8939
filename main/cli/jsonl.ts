// Line-oriented JSON in, JSON out: one output line per input line, in order, never a crash on bad input.
import { createInterface } from 'node:readline';

export async function mapJsonLines(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handle: (value: unknown) => unknown,
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    let result: unknown;
    if (line.trim() === '') result = { error: 'empty line: expected one JSON object' };
    else {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        result = { error: `not valid JSON: ${(err as Error).message}` };
      }
      if (result === undefined) {
        try {
          result = handle(value);
        } catch (err) {
          result = { error: `could not process this line: ${(err as Error).message}` };
        }
      }
    }
    if (!output.write(JSON.stringify(result) + '\n')) await new Promise((r) => output.once('drain', r));
  }
}
