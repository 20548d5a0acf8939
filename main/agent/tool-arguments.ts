// A model's tool-call arguments are measured before the AI SDK parses them: the SDK serialises parsed
// arguments recursively (telemetry, the next request), so arguments nested thousands deep overflowed its
// stack and ended the turn with no record of the call. Arguments deeper than MAX_NESTING are set aside
// here and the SDK gets `{}` in their place; the agent hands the real arguments to the gate, which
// records the call and refuses it, and the turn goes on.
import type { LanguageModelV3, LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import { jsonTextDepth, MAX_NESTING } from '../../common/nesting';

/** The most calls set aside at once (a turn takes them in the same step; this only bounds a leak). */
const MAX_HELD = 256;

/** The raw arguments of calls nested too deep, by tool call id, until the agent takes them. */
export class DeepArguments {
  private readonly held = new Map<string, string>();

  hold(toolCallId: string, raw: string): void {
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(toolCallId, raw);
  }

  /** The raw arguments the model sent for this call, when they were set aside. */
  take(toolCallId: string): string | undefined {
    const raw = this.held.get(toolCallId);
    this.held.delete(toolCallId);
    return raw;
  }
}

/** The model with its tool calls' arguments measured on the way in. */
export function guardToolArguments(model: LanguageModel, deep: DeepArguments): LanguageModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return model;
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === 'tool-call' && jsonTextDepth(part.input) > MAX_NESTING) {
              deep.hold(part.toolCallId, part.input);
              controller.enqueue({ ...part, input: '{}' });
            } else controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
    wrapGenerate: async ({ doGenerate }) => {
      const result = await doGenerate();
      const content = result.content.map((part) => {
        if (part.type !== 'tool-call' || jsonTextDepth(part.input) <= MAX_NESTING) return part;
        deep.hold(part.toolCallId, part.input);
        return { ...part, input: '{}' };
      });
      return { ...result, content };
    },
  };
  return wrapLanguageModel({ model: model as LanguageModelV3, middleware });
}
