import type { PolicyDecision, ToolRequest } from '../policy/engine.js';
import { canonicalTool } from '../policy/tools.js';
import { quote } from '../quote.js';
import type { ApprovalAnswer, ApprovalQuestion } from '../runtime/types.js';
import type {
  CliPermissionDecision,
  CliPermissionHandler,
  CliPermissionRequest,
} from './cli-agent.js';
import { isRuntimeTool } from './cli-tools.js';

/**
 * A command-line agent's permission questions answered by skillhost's policy and approval broker:
 * the same `evaluate` as every other call (through `runtime.authorize`, which records the
 * decision), then, for what the policy would ask about, the broker's `confirm`. A denial carries
 * the rule that decided it.
 */

/** The question the broker is asked about one of the agent's tools. */
export interface CliToolQuestion {
  readonly kind: 'tool';
  /** The canonical tool (`bash`, `read`, …). */
  readonly tool: string;
  readonly canonical: string;
  /** The agent (`claude`, `gemini`, …) and its own name of the tool. */
  readonly agent: string;
  readonly agentTool: string;
  /** The call as the policy reads it: its command or path. */
  readonly input: { readonly command?: string; readonly path?: string };
  /** The tool's input as the agent sent it. */
  readonly agentInput: unknown;
  readonly workspace: string | null;
  readonly summary: string;
  readonly reason: string;
}

export interface CliPolicyOptions {
  /** Decides and records a call (`runtime.authorize`). */
  readonly authorize: (request: ToolRequest) => PolicyDecision;
  /** Asks for an approval (`broker.confirm`). */
  readonly confirm: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
  /** Ties the broker's requests to the agent's tool call (`broker.beginCall`). */
  readonly beginCall?: (toolCallId: string | null) => void;
  /** The workspace the questions name (a grant "for this session" is bound to it). */
  readonly workspace?: string;
}

function deny(rule: string, reason: string): CliPermissionDecision {
  return { behavior: 'deny', rule, reason };
}

function ruleOf(decision: PolicyDecision): string {
  return decision.grant === undefined ? decision.rule : `${decision.rule}: ${decision.grant}`;
}

/** Resolves with the answer, or with `undefined` when the signal aborts first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The permission handler an agent run wires to its runtime and broker. The policy's deny is
 * final; its allow is given once; its "ask" goes to the broker (yes: allowed once; no: denied).
 * skillhost's own tools are the exception to asking: the runtime decides and asks about each of
 * their calls itself, with the exact content (a script's hash), so here only a deny stops them.
 * A tool the policy has no name for is denied.
 *
 * @example const permissions = policyPermissions({ authorize: (r) => runtime.authorize(r), confirm: broker.confirm });
 */
export function policyPermissions(options: CliPolicyOptions): CliPermissionHandler {
  return async (request: CliPermissionRequest): Promise<CliPermissionDecision> => {
    const call = request.request;
    if (call === undefined)
      return deny(
        'ceiling',
        `skillhost's policy has no tool for ${quote(request.tool)}, so it is not allowed`,
      );
    const decision = options.authorize(call);
    if (decision.effect === 'deny') return deny(ruleOf(decision), decision.reason);
    if (decision.effect === 'allow' || isRuntimeTool(call.tool))
      return { behavior: 'allow', scope: 'once' };
    const canonical = canonicalTool(call.tool) ?? call.tool;
    const question: CliToolQuestion = {
      kind: 'tool',
      tool: canonical,
      canonical,
      agent: request.provider,
      agentTool: request.tool,
      input: {
        ...(call.command === undefined ? {} : { command: call.command }),
        ...(call.path === undefined ? {} : { path: call.path }),
      },
      agentInput: request.input,
      workspace: options.workspace ?? null,
      summary: `${request.provider}: ${request.title}`,
      reason: decision.reason,
    };
    options.beginCall?.(request.toolCallId);
    // The broker takes any question with a kind; a tool question is one it knows by its fields.
    const answer = await unlessAborted(
      options.confirm(question as unknown as ApprovalQuestion),
      request.signal,
    );
    if (answer === undefined) return deny('withdrawn', 'The agent withdrew the question');
    if (answer === 'yes' || answer === 'always') return { behavior: 'allow', scope: 'once' };
    return deny('approval', 'The user refused');
  };
}

/** The text an agent is given for a denial: the reason and the rule, so the model can say why. */
export function denialMessage(decision: Extract<CliPermissionDecision, { behavior: 'deny' }>) {
  return `Denied by skillhost's policy (${decision.rule}): ${decision.reason}`;
}
