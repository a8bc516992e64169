import {
  type AgentLoopResult,
  type CompactionOutcome,
  type ContextAuditEvent,
  type ContextEvent,
  ContextManager,
  type ModelHandle,
  modelHandle,
  modelSummarizer,
  type ProviderConnection,
  SkillLedger,
} from '../../internal.js';
import { type Activation, type LoadedAgent, resolveModelPlan } from '../../node/index.js';
import { type ParsedArgs, UsageError } from '../args.js';
import type { SessionState } from './session-log.js';

/**
 * The context lifecycle of an agent session (`agent run`, `chat`): its options, the context
 * manager with the skill ledger restored from the session log, the history replaced by a
 * compaction (and logged), and a compaction asked for (`/compact`).
 */

export const CONTEXT_OPTIONS = {
  'context-window': { type: 'string' },
  'compact-model': { type: 'string' },
} as const;

type Message = AgentLoopResult['messages'][number];

export interface SessionContext {
  readonly manager: ContextManager;
  /** The loop's `onHistory`: the history replaced in place, and the new one logged. */
  replaceHistory(messages: readonly Message[]): void;
  /** Compacts the history now, as `/compact` asks. */
  compact(request: {
    readonly system: string;
    readonly tools: unknown;
    readonly model: ModelHandle;
    readonly signal: AbortSignal;
    readonly emit: (event: ContextEvent) => void;
    readonly audit: (record: ContextAuditEvent) => void;
  }): Promise<CompactionOutcome>;
}

function contextWindow(args: ParsedArgs): number | undefined {
  const value = args.options['context-window'];
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9]\d{2,8}$/.test(text) || Number(text) < 1_000)
    throw new UsageError(
      `option '--context-window' needs a number of tokens, at least 1000, got '${text}'`,
    );
  return Number(text);
}

export function sessionContext(
  args: ParsedArgs,
  options: {
    readonly agent: LoadedAgent;
    readonly connection: ProviderConnection;
    readonly resumed: SessionState | undefined;
    /** The skills activated again on resume: the ledger takes their texts back (same hash only). */
    readonly restored: readonly Activation[];
    readonly history: Message[];
    readonly log: (record: Record<string, unknown>) => void;
  },
): SessionContext {
  const { agent, connection, history, log } = options;
  const window = contextWindow(args);
  const compactModel =
    args.options['compact-model'] === undefined
      ? undefined
      : resolveModelPlan(agent.manifest.models, {
          provider: connection.provider,
          model: String(args.options['compact-model']),
        }).model;
  const manager = new ContextManager({
    ...(window === undefined ? {} : { contextWindow: window }),
    ...(agent.contextBudget === undefined ? {} : { contextBudget: agent.contextBudget }),
    ...(compactModel === undefined
      ? {}
      : { summarizer: modelSummarizer(modelHandle(connection, compactModel)) }),
    ledger: SkillLedger.restore(options.resumed?.ledger),
    onLedger: (record) => log({ type: 'ledger', ...record }),
  });
  for (const activation of options.restored)
    if (activation.contentHash !== undefined)
      manager.ledger.rememberText(activation.name, activation.contentHash, activation.text);
  const replaceHistory = (messages: readonly Message[]) => {
    history.splice(0, history.length, ...messages);
    log({ type: 'compaction', messages: [...messages] });
  };
  return {
    manager,
    replaceHistory,
    compact: async (request) => {
      const outcome = await manager.compact({
        trigger: 'manual',
        system: request.system,
        tools: request.tools,
        messages: history,
        model: request.model.model,
        summarize: modelSummarizer(request.model),
        signal: request.signal,
        emit: request.emit,
        audit: request.audit,
      });
      if (outcome.changed) replaceHistory(outcome.messages);
      return outcome;
    },
  };
}
