import type { AuditEventInput, AuditTrigger } from '../audit/trail.js';
import type { Code } from '../codes.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Activation } from '../disclosure/activation.js';
import type { SkillResource } from '../disclosure/resources.js';
import { SkillhostError } from '../errors.js';
import type { PolicyConfig, PolicyDecision } from '../policy/engine.js';
import type { RegistryEntry } from '../registry/registry.js';
import type { SkillSource } from '../registry/sources.js';

/**
 * The audit records the runtime writes, built in one place so that every way of reaching a
 * capability (library, CLI, MCP, adapters) leaves the same record for the same step.
 */

/** Values quoted from a request are cut to this many characters in a record. */
const MAX_QUOTED = 300;

/** The code and message of any failure: coded errors keep their code, anything else is internal. */
export function errorOf(error: unknown): { readonly code: Code; readonly message: string } {
  if (SkillhostError.isInstance(error)) return { code: error.code, message: error.message };
  return {
    code: 'INTERNAL_ERROR',
    message: error instanceof Error ? error.message : String(error),
  };
}

function policyOf(decision: PolicyDecision) {
  return { decision: decision.decision, effect: decision.effect, rule: decision.rule };
}

/** The start of an audit session; a session opened from another names it (`parent`). */
export function sessionStartRecord(policy: PolicyConfig, parent?: string): AuditEventInput {
  return {
    event: 'session-start',
    details: {
      policy: {
        tools: policy.tools,
        narrow: policy.narrow ?? false,
        shadow: policy.shadow ?? false,
      },
      ...(parent === undefined ? {} : { parent_session: parent }),
    },
  };
}

/** One record per source: what was found there, by status. */
export function discoveryRecord(
  source: SkillSource,
  entries: readonly RegistryEntry[],
  findings: readonly Diagnostic[],
): AuditEventInput {
  const count = (status: string) => entries.filter((entry) => entry.status === status).length;
  return {
    event: 'skill-discover',
    source: source.id,
    details: {
      root: source.root,
      trust: source.trust,
      enabled: source.enabled,
      skills: entries.length,
      active: count('active'),
      shadowed: count('shadowed'),
      skipped: count('skipped'),
      untrusted: count('untrusted'),
      names: entries.map((entry) => `${entry.name}:${entry.status}`),
      // Limits reached, loops, unreadable folders: what the search of this source left out.
      ...(findings.length === 0
        ? {}
        : { findings: findings.map((finding) => `${finding.code}: ${finding.message}`) }),
    },
  };
}

export function activationRecord(
  activation: Activation,
  entry: RegistryEntry,
  gate: PolicyDecision,
  droppedGrants: readonly string[],
  /** How the user approved it, when it needed approving (an untrusted skill the model chose). */
  approval?: 'stored' | 'once' | 'always',
): AuditEventInput {
  return {
    event: 'skill-activate',
    skill_name: activation.name,
    source: activation.source,
    content_hash: activation.contentHash ?? null,
    triggered_by: activation.triggeredBy,
    loaded_files: activation.alreadyActive
      ? []
      : [entry.skillFile.slice(entry.directory.length + 1)],
    details: {
      address: activation.address,
      trust: activation.trust,
      already_active: activation.alreadyActive,
      listed_files: activation.files.length,
      ...(droppedGrants.length === 0 ? {} : { dropped_grants: droppedGrants }),
      ...(approval === undefined ? {} : { approval }),
      policy: policyOf(gate),
    },
  };
}

export function readRecord(
  entry: RegistryEntry,
  contentHash: string | undefined,
  resource: SkillResource,
  gate: PolicyDecision,
): AuditEventInput {
  return {
    event: 'resource-read',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash ?? null,
    loaded_files: [resource.path],
    details: {
      bytes: resource.size,
      media_type: resource.mediaType,
      binary: resource.content.kind === 'binary',
      policy: policyOf(gate),
    },
  };
}

export function listRecord(
  entry: RegistryEntry,
  files: number,
  unlisted: number,
  gate: PolicyDecision,
): AuditEventInput {
  return {
    event: 'resource-list',
    skill_name: entry.name,
    source: entry.source.id,
    details: { files, unlisted, policy: policyOf(gate) },
  };
}

/** A capability that failed or was refused: what was asked, by whom, and the coded error. */
export function failureRecord(
  event: 'skill-activate' | 'resource-read' | 'resource-list' | 'script-run',
  skill: string | undefined,
  error: unknown,
  extra: {
    readonly triggeredBy?: AuditTrigger | undefined;
    readonly path?: string | undefined;
    readonly source?: string;
    readonly contentHash?: string;
    readonly call?: Readonly<Record<string, unknown>>;
  } = {},
): AuditEventInput {
  return {
    event,
    skill_name: skill === undefined ? null : skill.slice(0, 200),
    triggered_by: extra.triggeredBy ?? null,
    error: errorOf(error),
    ...(extra.source === undefined ? {} : { source: extra.source }),
    ...(extra.contentHash === undefined ? {} : { content_hash: extra.contentHash }),
    ...(extra.path === undefined || event === 'script-run'
      ? {}
      : { loaded_files: [extra.path.slice(0, MAX_QUOTED)] }),
    ...(extra.call === undefined ? {} : { tool_or_script_calls: [extra.call] }),
  };
}

/** A script call as recorded: its path, arguments and interpreter. */
export type ScriptCall = {
  readonly script: string;
  readonly args: string[];
  readonly interpreter: string;
};

export function scriptDecisionRecord(
  entry: RegistryEntry,
  contentHash: string,
  call: ScriptCall,
  decision: PolicyDecision,
): AuditEventInput {
  return {
    event: 'permission-decide',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    tool_or_script_calls: [{ ...call, decision: decision.decision }],
    details: { effect: decision.effect, rule: decision.rule, reason: decision.reason },
  };
}

export function approvalRecord(
  entry: RegistryEntry,
  contentHash: string,
  call: ScriptCall,
  scope: 'once' | 'always',
  by: 'flag' | 'user',
): AuditEventInput {
  return {
    event: 'permission-approve',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    tool_or_script_calls: [{ script: call.script, args: call.args, decision: 'allow' }],
    details: { scope, by },
  };
}

export function userRefusalRecord(
  entry: RegistryEntry,
  contentHash: string,
  call: ScriptCall,
): AuditEventInput {
  return {
    event: 'permission-decide',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    tool_or_script_calls: [{ script: call.script, decision: 'deny' }],
    details: { rule: 'user', reason: 'The user refused' },
  };
}

/** A host tool's call as recorded: the tool and what it was asked (a path, a command, sizes). */
export type WorkspaceCall = Readonly<Record<string, unknown>> & { readonly tool: string };

/** The policy's decision on a host tool's call, recorded before anything else happens. */
export function toolDecisionRecord(call: WorkspaceCall, decision: PolicyDecision): AuditEventInput {
  return {
    event: 'permission-decide',
    skill_name: decision.skill ?? null,
    tool_or_script_calls: [{ ...call, decision: decision.decision }],
    details: {
      effect: decision.effect,
      rule: decision.rule,
      reason: decision.reason,
      ...(decision.grant === undefined ? {} : { grant: decision.grant }),
    },
  };
}

/** The user's (or a flag's) answer about a host tool's call. */
export function toolAnswerRecord(call: WorkspaceCall, approved: boolean): AuditEventInput {
  return approved
    ? {
        event: 'permission-approve',
        tool_or_script_calls: [{ tool: call.tool, decision: 'allow' }],
        details: { scope: 'once', by: 'user' },
      }
    : {
        event: 'permission-decide',
        tool_or_script_calls: [{ tool: call.tool, decision: 'deny' }],
        details: { rule: 'user', reason: 'The user refused' },
      };
}

/** What a host tool's call did: its outcome (bytes returned, what it wrote or ran), or its error. */
export function toolCallRecord(
  call: WorkspaceCall,
  outcome: { readonly error?: unknown; readonly details?: Readonly<Record<string, unknown>> },
): AuditEventInput {
  return {
    event: 'tool-call',
    triggered_by: 'model',
    tool_or_script_calls: [call],
    ...(outcome.error === undefined ? {} : { error: errorOf(outcome.error) }),
    details: outcome.details ?? {},
  };
}

/** The records that decide on a call, which name the model's id of it (`tool_call_id`). */
const DECISION_EVENTS: ReadonlySet<string> = new Set(['permission-decide', 'permission-approve']);

/**
 * A decision record with the model's id of the tool call it was made in (`tool_call_id` in each
 * of its calls); other records, and records made outside a call, as they are.
 */
export function withCallId(input: AuditEventInput, callId: string | undefined): AuditEventInput {
  if (callId === undefined || !DECISION_EVENTS.has(input.event)) return input;
  const calls = input.tool_or_script_calls ?? [{}];
  return {
    ...input,
    tool_or_script_calls: calls.map((call) => ({ ...call, tool_call_id: callId })),
  };
}
