/**
 * skillhost/openai — the runtime's model-facing tools for the OpenAI Chat Completions and
 * Responses APIs. Typed by shape only: it loads nothing from `openai`, whose objects fit these.
 */
export {
  type OpenAIChatMessageLike,
  type OpenAIChatTool,
  type OpenAIToolCallLike,
  type OpenAIToolMessage,
  openaiTools,
  runOpenAIToolCalls,
} from './chat.js';
export {
  type OpenAIFunctionCallLike,
  type OpenAIFunctionCallOutput,
  type OpenAIResponseItemLike,
  type OpenAIResponsesTool,
  openaiResponsesTools,
  runOpenAIFunctionCalls,
} from './responses.js';
export type { OpenAIParameters, RunOpenAIToolCallsOptions, SkillToolRuntime } from './shared.js';
