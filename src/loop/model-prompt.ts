import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3TextPart,
  LanguageModelV3ToolResultOutput,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';

/**
 * The history (AI SDK messages, as the session log keeps them) as the prompt a provider's model
 * takes. Each message is converted once and remembered by identity: the loop only appends to
 * its history (a compaction makes new messages), so a step converts only what the last one added.
 */

// biome-ignore lint/suspicious/noExplicitAny: the parts of a history read from a session file are checked here.
type Part = any;

const converted = new WeakMap<object, LanguageModelV3Message>();

/** A message the prompt cannot carry: thrown before the request, so nothing is sent. */
function invalid(index: number, what: string): Error {
  return Object.assign(new Error(`Message ${index + 1} of the history cannot be sent: ${what}`), {
    name: 'AI_InvalidPromptError',
  });
}

function options(value: { providerOptions?: unknown }): {
  providerOptions?: SharedV3ProviderOptions;
} {
  return value.providerOptions === undefined || value.providerOptions === null
    ? {}
    : { providerOptions: value.providerOptions as SharedV3ProviderOptions };
}

function fileData(data: unknown): LanguageModelV3FilePart['data'] {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (typeof data === 'string' && /^(?:https?:|data:)/.test(data)) {
    try {
      return new URL(data);
    } catch {
      return data;
    }
  }
  return data as LanguageModelV3FilePart['data'];
}

function mediaPart(part: Part, index: number): LanguageModelV3FilePart {
  const image = part.type === 'image';
  const mediaType = part.mediaType ?? (image ? 'image/*' : undefined);
  if (typeof mediaType !== 'string') throw invalid(index, 'a file part without its media type');
  return {
    type: 'file',
    data: fileData(image ? part.image : part.data),
    mediaType,
    ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
    ...options(part),
  };
}

function textPart(part: Part): LanguageModelV3TextPart {
  return { type: 'text', text: String(part.text ?? ''), ...options(part) };
}

/** A tool result's output: the media items of `content` under the names providers take. */
function toolOutput(output: Part, index: number): LanguageModelV3ToolResultOutput {
  if (output === null || typeof output !== 'object' || typeof output.type !== 'string')
    throw invalid(index, 'a tool result without its output');
  if (output.type !== 'content' || !Array.isArray(output.value)) return output;
  return {
    type: 'content',
    value: output.value.map((item: Part) => {
      if (item?.type !== 'media') return item;
      return {
        type: String(item.mediaType).startsWith('image/') ? 'image-data' : 'file-data',
        data: item.data,
        mediaType: item.mediaType,
      };
    }),
  };
}

function toolResult(part: Part, index: number) {
  return {
    type: 'tool-result' as const,
    toolCallId: String(part.toolCallId),
    toolName: String(part.toolName),
    output: toolOutput(part.output, index),
    ...options(part),
  };
}

function assistantPart(part: Part, index: number) {
  switch (part?.type) {
    case 'text':
      return textPart(part);
    case 'reasoning':
      return { type: 'reasoning' as const, text: String(part.text ?? ''), ...options(part) };
    case 'file':
      return mediaPart(part, index);
    case 'tool-call':
      return {
        type: 'tool-call' as const,
        toolCallId: String(part.toolCallId),
        toolName: String(part.toolName),
        input: part.input,
        ...(part.providerExecuted === undefined ? {} : { providerExecuted: part.providerExecuted }),
        ...options(part),
      };
    case 'tool-result':
      return toolResult(part, index);
    default:
      throw invalid(index, `an assistant part of type ${JSON.stringify(part?.type)}`);
  }
}

/** One message of the history as the provider takes it (the AI SDK's own rules for each part). */
export function promptMessage(message: ModelMessage, index: number): LanguageModelV3Message {
  const m = message as Part;
  switch (m?.role) {
    case 'system':
      return { role: 'system', content: String(m.content), ...options(m) };
    case 'user':
      if (typeof m.content === 'string')
        return { role: 'user', content: [{ type: 'text', text: m.content }], ...options(m) };
      if (!Array.isArray(m.content)) throw invalid(index, 'a user message without content');
      return {
        role: 'user',
        content: m.content
          .map((part: Part) =>
            part?.type === 'text'
              ? textPart(part)
              : part?.type === 'image' || part?.type === 'file'
                ? mediaPart(part, index)
                : (() => {
                    throw invalid(index, `a user part of type ${JSON.stringify(part?.type)}`);
                  })(),
          )
          .filter((part: Part) => part.type !== 'text' || part.text !== ''),
        ...options(m),
      };
    case 'assistant':
      if (typeof m.content === 'string')
        return { role: 'assistant', content: [{ type: 'text', text: m.content }], ...options(m) };
      if (!Array.isArray(m.content)) throw invalid(index, 'an assistant message without content');
      return {
        role: 'assistant',
        content: m.content
          // Empty texts without options say nothing; approval requests are the SDK's own.
          .filter(
            (part: Part) =>
              (part?.type !== 'text' || part.text !== '' || part.providerOptions != null) &&
              part?.type !== 'tool-approval-request',
          )
          .map((part: Part) => assistantPart(part, index)),
        ...options(m),
      };
    case 'tool':
      if (!Array.isArray(m.content)) throw invalid(index, 'a tool message without content');
      return {
        role: 'tool',
        content: m.content
          .filter((part: Part) => part?.type === 'tool-result')
          .map((part: Part) => toolResult(part, index)),
        ...options(m),
      };
    default:
      throw invalid(index, `the role ${JSON.stringify(m?.role)}`);
  }
}

/**
 * The prompt of one request: the system message, then the history, consecutive tool messages
 * joined into one, and every tool call of the assistant answered before the next user message.
 *
 * @example modelPrompt({ role: 'system', content: system, providerOptions: ANTHROPIC_CACHE }, messages)
 */
export function modelPrompt(
  system: { readonly content: string; readonly providerOptions?: SharedV3ProviderOptions },
  messages: readonly ModelMessage[],
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: system.content, ...options(system) },
  ];
  const open = new Set<string>();
  messages.forEach((message, index) => {
    let next = converted.get(message);
    if (next === undefined) {
      next = promptMessage(message, index);
      converted.set(message, next);
    }
    if (next.role === 'tool') {
      for (const part of next.content)
        if (part.type === 'tool-result') open.delete(part.toolCallId);
      if (next.content.length === 0) return;
      const last = prompt[prompt.length - 1];
      if (last?.role === 'tool') {
        // A new message, so that the remembered ones stay as they were converted.
        prompt[prompt.length - 1] = {
          role: 'tool',
          content: [...last.content, ...next.content],
          ...options(next),
        };
        return;
      }
    } else if (next.role === 'assistant') {
      for (const part of next.content)
        if (part.type === 'tool-call' && part.providerExecuted !== true) open.add(part.toolCallId);
    } else if (open.size > 0) {
      throw missingResults(open);
    }
    prompt.push(next);
  });
  if (open.size > 0) throw missingResults(open);
  return prompt;
}

function missingResults(open: ReadonlySet<string>): Error {
  return Object.assign(
    new Error(`Tool results are missing for tool calls ${[...open].join(', ')}.`),
    { name: 'AI_MissingToolResultsError' },
  );
}
