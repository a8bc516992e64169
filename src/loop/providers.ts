import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ProviderName } from '../agents/models.js';
import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';

/** The providers the agent loop calls itself (model APIs); `claude` and `cursor` are command-line agents. */
export type ApiProviderName = Extract<ProviderName, 'anthropic' | 'openai' | 'openai-compatible'>;

export const API_PROVIDERS: readonly ApiProviderName[] = [
  'anthropic',
  'openai',
  'openai-compatible',
];

/** How to reach one provider: the host reads keys and base URLs (environment, config) and passes them in. */
export interface ProviderConnection {
  readonly provider: ApiProviderName;
  /** Never logged, recorded or put in a message. Absent for a local server. */
  readonly apiKey?: string;
  /** Anthropic: with or without the trailing /v1; OpenAI and OpenAI-compatible: the URL up to /v1. */
  readonly baseURL?: string;
  /** The fetch to use (tests count requests through it); default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** A model the loop can call: made on first use, so the AI SDK loads only when a model is called. */
export interface ModelHandle {
  readonly provider: ApiProviderName;
  readonly model: string;
  load(): Promise<LanguageModelV3>;
}

/** Whether a provider name is one the loop calls itself. */
export function isApiProvider(name: string): name is ApiProviderName {
  return (API_PROVIDERS as readonly string[]).includes(name);
}

/** The Anthropic provider wants the URL up to /v1; the Anthropic SDKs' variable stops before it. */
function anthropicBase(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

function checkBase(url: string | undefined, provider: string): void {
  if (url === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SkillhostError(
      'MODEL_BASE_URL_INVALID',
      `The base URL for ${provider} is not a URL: ${quote(url)}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SkillhostError(
      'MODEL_BASE_URL_INVALID',
      `The base URL for ${provider} must be http or https: ${quote(url)}`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // Credentials in a URL would end up in messages and logs.
    throw new SkillhostError(
      'MODEL_BASE_URL_INVALID',
      `The base URL for ${provider} carries credentials; give the key through the environment instead`,
    );
  }
}

/**
 * A handle on one model of one API provider. Nothing loads until `load()`; the key stays in the
 * closure, never in the handle's fields.
 */
export function modelHandle(connection: ProviderConnection, model: string): ModelHandle {
  const { provider, apiKey, baseURL, fetch } = connection;
  checkBase(baseURL, provider);
  if (provider !== 'openai-compatible' && (apiKey === undefined || apiKey === '')) {
    const variable = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    throw new SkillhostError(
      'MODEL_KEY_MISSING',
      `The ${provider} provider needs an API key: set ${variable} in the environment (never on the command line)`,
    );
  }
  if (provider === 'openai-compatible' && baseURL === undefined) {
    throw new SkillhostError(
      'MODEL_BASE_URL_INVALID',
      'The openai-compatible provider needs the server: --base-url http://127.0.0.1:11434/v1 (for example)',
    );
  }
  let loaded: Promise<LanguageModelV3> | undefined;
  const load = async (): Promise<LanguageModelV3> => {
    if (provider === 'anthropic') {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        apiKey: apiKey as string,
        ...(baseURL === undefined ? {} : { baseURL: anthropicBase(baseURL) }),
        ...(fetch === undefined ? {} : { fetch }),
      })(model);
    }
    if (provider === 'openai') {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        apiKey: apiKey as string,
        ...(baseURL === undefined ? {} : { baseURL: baseURL.replace(/\/+$/, '') }),
        ...(fetch === undefined ? {} : { fetch }),
      }).responses(model);
    }
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    return createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: (baseURL as string).replace(/\/+$/, ''),
      includeUsage: true,
      ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
      ...(fetch === undefined ? {} : { fetch }),
    }).chatModel(model);
  };
  return {
    provider,
    model,
    load: () => {
      loaded ??= load();
      return loaded;
    },
  };
}
