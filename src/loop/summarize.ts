import type { Summarizer } from '../context/summary-input.js';
import type { ModelHandle } from './providers.js';

type AiModule = typeof import('ai');
let aiModule: Promise<AiModule> | undefined;
/** The AI SDK, loaded on the first summary (a step needs only the provider). */
function loadAi(): Promise<AiModule> {
  aiModule ??= import('ai');
  return aiModule;
}

/**
 * A summariser over a model of the loop (the session's, or a cheaper one): one request, no
 * tools, its own instructions, the transcript as the prompt. Its failures reach the context
 * manager, which keeps the context as it was and says why.
 */
export function modelSummarizer(handle: ModelHandle): Summarizer {
  return async (request) => {
    const ai = await loadAi();
    const result = await ai.generateText({
      model: await handle.load(),
      system: request.system,
      prompt: request.prompt,
      maxOutputTokens: request.maxOutputTokens,
      maxRetries: 2,
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
    });
    return {
      text: result.text,
      ...(result.usage.inputTokens === undefined ? {} : { inputTokens: result.usage.inputTokens }),
      ...(result.usage.outputTokens === undefined
        ? {}
        : { outputTokens: result.usage.outputTokens }),
    };
  };
}
