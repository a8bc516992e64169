import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';
import type { AgentModels } from './manifest.js';

/**
 * A provider skillhost can plan for; `claude` is the default, as the agent format says.
 * `claude`, `cursor`, `gemini` and `acp` (any agent speaking the Agent Client Protocol) are
 * command-line agents; `anthropic`, `openai` and `openai-compatible` are model APIs that
 * `skillhost agent run` calls itself.
 */
export type ProviderName =
  | 'claude'
  | 'cursor'
  | 'gemini'
  | 'acp'
  | 'anthropic'
  | 'openai'
  | 'openai-compatible';

export interface ProviderInfo {
  readonly name: ProviderName;
  /** `api`: a model API the agent loop calls; `cli`: a command-line agent that runs its own loop. */
  readonly kind: 'api' | 'cli';
  /** Other spellings that mean this provider. */
  readonly synonyms: readonly string[];
  /**
   * The model used when neither the command line nor the manifest names one; empty for a
   * command-line agent whose own default applies (it reports the model it uses).
   */
  readonly defaultModel: string;
  /** Aliases → model id. Aliases name tiers, so the same agent works across providers. */
  readonly aliases: Readonly<Record<string, string>>;
  /** What a full model id of this provider looks like. */
  readonly modelId: RegExp;
}

const CLAUDE_ALIASES = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
} as const;
const CLAUDE_MODEL_ID = /^claude-[a-z0-9][a-z0-9.-]*$/;

/** The tier names every provider with tiers knows; they mean nothing to a local server. */
const TIERS = new Set(['sonnet', 'opus', 'haiku']);

/** Providers whose models have no tiers: a tier alias cannot name one. */
const UNTIERED = new Set<ProviderName>(['openai-compatible', 'acp']);

/**
 * The one table of providers and model aliases. `sonnet`, `opus` and `haiku` are tiers
 * (balanced, strongest, fastest) and resolve per provider.
 */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    // Claude Code's own default model applies unless one is chosen (it says which in its init).
    name: 'claude',
    kind: 'cli',
    synonyms: ['claude-code'],
    defaultModel: '',
    aliases: CLAUDE_ALIASES,
    modelId: CLAUDE_MODEL_ID,
  },
  {
    name: 'anthropic',
    kind: 'api',
    synonyms: [],
    defaultModel: 'claude-sonnet-4-5',
    aliases: CLAUDE_ALIASES,
    modelId: CLAUDE_MODEL_ID,
  },
  {
    name: 'openai',
    kind: 'api',
    synonyms: [],
    defaultModel: 'gpt-5',
    aliases: {
      sonnet: 'gpt-5',
      opus: 'gpt-5-pro',
      haiku: 'gpt-5-mini',
      mini: 'gpt-5-mini',
      nano: 'gpt-5-nano',
    },
    modelId: /^(?:gpt-|o[1-9]|chatgpt-)[a-z0-9.-]*$/,
  },
  {
    // A local or self-hosted server (Ollama, vLLM, llama.cpp, LM Studio): its models have no
    // tiers, so a tier alias cannot name one; any model id the server serves is accepted.
    name: 'openai-compatible',
    kind: 'api',
    synonyms: [],
    defaultModel: '',
    aliases: {},
    modelId: /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/,
  },
  {
    name: 'cursor',
    kind: 'cli',
    synonyms: ['cursor-agent'],
    defaultModel: 'auto',
    aliases: {
      sonnet: 'sonnet-4.5',
      opus: 'opus-4.5',
      haiku: 'haiku-4.5',
      auto: 'auto',
    },
    modelId: /^[a-z0-9][a-z0-9.-]*$/,
  },
  {
    // Gemini CLI in its ACP mode; its own default (a router over its models) applies unless
    // one is chosen.
    name: 'gemini',
    kind: 'cli',
    synonyms: ['gemini-cli'],
    defaultModel: '',
    aliases: {
      sonnet: 'gemini-2.5-flash',
      opus: 'gemini-2.5-pro',
      haiku: 'gemini-2.5-flash-lite',
      pro: 'gemini-2.5-pro',
      flash: 'gemini-2.5-flash',
    },
    modelId: /^gemini-[a-z0-9][a-z0-9.-]*$/,
  },
  {
    // Any agent speaking the Agent Client Protocol (--acp-command): its models are its own.
    name: 'acp',
    kind: 'cli',
    synonyms: [],
    defaultModel: '',
    aliases: {},
    modelId: /^[A-Za-z0-9][A-Za-z0-9._:/@+[\]-]{0,199}$/,
  },
];

/** The resolved plan: which provider and model to call, and what to fall back to. */
export interface ModelPlan {
  readonly provider: ProviderName;
  readonly providerFrom: 'command line' | 'manifest' | 'default';
  readonly model: string;
  readonly modelFrom: 'command line' | 'manifest' | 'default';
  /** The alias the model was given as, if it was one. */
  readonly alias?: string;
  /** The model tried when the preferred one fails, if the manifest names one. */
  readonly fallback?: string;
}

/** The provider a name means, or undefined. */
export function findProvider(name: string): ProviderInfo | undefined {
  const wanted = name.trim().toLowerCase();
  return PROVIDERS.find(
    (provider) => provider.name === wanted || provider.synonyms.includes(wanted),
  );
}

function resolveModel(provider: ProviderInfo, model: string): { id: string; alias?: string } {
  const wanted = model.trim();
  const alias = provider.aliases[wanted.toLowerCase()];
  if (alias !== undefined) return { id: alias, alias: wanted.toLowerCase() };
  if (UNTIERED.has(provider.name) && TIERS.has(wanted.toLowerCase())) {
    throw new SkillhostError(
      'MODEL_UNKNOWN',
      `${quote(wanted)} is a tier alias, which ${provider.name === 'acp' ? 'an ACP agent' : 'an OpenAI-compatible server'} does not know: name its model with --model`,
    );
  }
  if (provider.name === 'openai-compatible' && wanted === '') {
    throw new SkillhostError(
      'MODEL_UNKNOWN',
      'An OpenAI-compatible server has no default model: name one with --model (e.g. --model qwen2.5-coder:7b)',
    );
  }
  // A command-line agent without a default of ours uses its own.
  if (wanted === '' && provider.kind === 'cli') return { id: '' };
  if (provider.modelId.test(wanted)) return { id: wanted };
  throw new SkillhostError(
    'MODEL_UNKNOWN',
    `${quote(wanted)} is not a ${provider.name} model: use an alias (${Object.keys(provider.aliases).join(', ')}) or a ${provider.name} model id`,
  );
}

/**
 * Chooses provider and model by the agent format's precedence: `--provider` > `models.provider` >
 * `claude`; `--model` > `models.preferred` > the provider's default. Aliases resolve per
 * provider; the fallback is part of the plan.
 *
 * @example resolveModelPlan({ provider: 'claude', preferred: 'sonnet', fallback: 'haiku' }) // claude-sonnet-4-5, fallback claude-haiku-4-5
 */
export function resolveModelPlan(
  models: AgentModels | undefined,
  overrides: { readonly provider?: string; readonly model?: string } = {},
): ModelPlan {
  const providerName = overrides.provider ?? models?.provider;
  const provider = findProvider(providerName ?? 'claude');
  if (provider === undefined) {
    throw new SkillhostError(
      'MODEL_PROVIDER_UNKNOWN',
      `Unknown provider ${quote(String(providerName))}: use ${PROVIDERS.map((item) => item.name).join(', ')}`,
    );
  }
  const requested = overrides.model ?? models?.preferred;
  const chosen = resolveModel(provider, requested ?? provider.defaultModel);
  // A fallback the provider cannot name (a tier alias on a local server) is left out.
  let fallback: string | undefined;
  if (models?.fallback !== undefined) {
    try {
      fallback = resolveModel(provider, models.fallback).id;
    } catch (error) {
      if (!UNTIERED.has(provider.name)) throw error;
    }
  }
  return {
    provider: provider.name,
    providerFrom:
      overrides.provider !== undefined
        ? 'command line'
        : models?.provider !== undefined
          ? 'manifest'
          : 'default',
    model: chosen.id,
    modelFrom:
      overrides.model !== undefined
        ? 'command line'
        : models?.preferred !== undefined
          ? 'manifest'
          : 'default',
    ...(chosen.alias === undefined ? {} : { alias: chosen.alias }),
    ...(fallback === undefined || fallback === chosen.id ? {} : { fallback }),
  };
}

/** What a model can take: its context window and the most output tokens of one request. */
export interface ModelLimits {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

/**
 * Context windows and output limits by model id, as the providers publish them (the first
 * pattern that matches wins). A model the table does not know gets `DEFAULT_CONTEXT_WINDOW`.
 */
export const MODEL_LIMITS: readonly (readonly [RegExp, ModelLimits])[] = [
  [/^claude-opus-4(?:-[01])?(?:-\d{8})?$/, { contextWindow: 200_000, maxOutputTokens: 32_000 }],
  [/^claude-3-5-/, { contextWindow: 200_000, maxOutputTokens: 8_192 }],
  [/^claude-3-/, { contextWindow: 200_000, maxOutputTokens: 4_096 }],
  [/^claude-/, { contextWindow: 200_000, maxOutputTokens: 64_000 }],
  [/^gpt-5/, { contextWindow: 400_000, maxOutputTokens: 128_000 }],
  [/^gpt-4\.1/, { contextWindow: 1_047_576, maxOutputTokens: 32_768 }],
  [/^(?:gpt-4o|chatgpt-4o)/, { contextWindow: 128_000, maxOutputTokens: 16_384 }],
  [/^o[134](?:-|$)/, { contextWindow: 200_000, maxOutputTokens: 100_000 }],
  [/^gemini-/, { contextWindow: 1_048_576, maxOutputTokens: 65_536 }],
];

/** The context window assumed for a model the table does not know (a local server's, say). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;
/** The output reserve assumed for a model the table does not know. */
export const DEFAULT_OUTPUT_TOKENS = 4_096;

/**
 * A model's limits from the table, or undefined when it does not know the model.
 *
 * @example modelLimits('claude-sonnet-4-5') // { contextWindow: 200000, maxOutputTokens: 64000 }
 */
export function modelLimits(model: string): ModelLimits | undefined {
  const id = model.trim().toLowerCase();
  return MODEL_LIMITS.find(([pattern]) => pattern.test(id))?.[1];
}
