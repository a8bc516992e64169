import type { AuditEventInput } from '../audit/trail.js';
import type { ActivationTrigger } from '../disclosure/activation.js';
import { sanitizeCatalogText } from '../disclosure/sanitize.js';
import { SkillhostError } from '../errors.js';
import { approvalKey } from '../policy/engine.js';
import { unusableReason } from '../registry/entries.js';
import type { RegistryEntry } from '../registry/registry.js';
import type { ActivationApprovalQuestion, ApprovalAnswer, ApprovalStore } from './types.js';

/**
 * The user's word on activating an untrusted skill. The user's own activation (`/name`, a
 * prompt picked in a client, an agent's preloaded skill) is the user's choice and asks nothing.
 * The model's and the router's are not: an untrusted skill's description is written by whoever
 * wrote the skill, and it is what makes a model (or a router's ranking) pick the skill, so the
 * body it would bring into the context is confirmed first, like a script run.
 */

/** How an activation was allowed: without a question, by a stored approval, or by the user now. */
export type ActivationApproval = 'not-needed' | 'stored' | 'once' | 'always';

/** What deciding and asking need of the runtime. */
export interface ActivationApprovalHost {
  readonly approvals: ApprovalStore | undefined;
  readonly confirm: ((question: ActivationApprovalQuestion) => Promise<ApprovalAnswer>) | undefined;
  record(input: AuditEventInput): void;
  /** The entry a name or address resolves to. */
  resolve(name: string): RegistryEntry | undefined;
  /** SHA-256 of the entry's SKILL.md as it is now. */
  contentHash(entry: RegistryEntry): string | undefined;
  /** The content hash a skill is active with in this session, if it is active. */
  activeHash(address: string): string | undefined;
}

/** What an activation needs before it happens: nothing, a stored approval, or a question. */
export type PendingApproval =
  | { readonly kind: 'none' }
  | { readonly kind: 'stored'; readonly hash: string }
  | {
      readonly kind: 'ask';
      readonly entry: RegistryEntry;
      readonly hash: string;
      readonly triggeredBy: 'model' | 'router';
    };

/**
 * Decides what activating `name` needs: nothing for a trusted skill, the user's own choice, a
 * skill that cannot be activated anyway (activation reports why), or the same content already
 * active (approved in this session, whether or not its body is sent again); else a stored "always" for this content, or a question.
 */
export function pendingApproval(
  host: ActivationApprovalHost,
  name: string,
  triggeredBy: ActivationTrigger,
): PendingApproval {
  const entry = host.resolve(name);
  if (
    entry === undefined ||
    unusableReason(entry.status) !== undefined ||
    triggeredBy === 'user' ||
    !needsActivationApproval(entry, triggeredBy)
  )
    return { kind: 'none' };
  const hash = host.contentHash(entry);
  if (hash === undefined) {
    throw new SkillhostError(
      'SKILL_INVALID',
      `Skill ${entry.address} cannot be read, so no approval can be bound to its content`,
    );
  }
  // The same content already active was approved in this session: sending its body again (a
  // re-activation after a compaction) is no new capability.
  if (host.activeHash(entry.address) === hash) return { kind: 'none' };
  if (storedActivationApproval(host, entry, hash, triggeredBy) !== undefined)
    return { kind: 'stored', hash };
  return { kind: 'ask', entry, hash, triggeredBy };
}

/** Whether activating this entry needs the user's confirmation. */
export function needsActivationApproval(
  entry: RegistryEntry,
  triggeredBy: ActivationTrigger,
): boolean {
  return entry.source.trust !== 'trusted' && triggeredBy !== 'user';
}

/** The key of an "always" approval of this skill's activation, bound to its exact content. */
export function activationApprovalKey(entry: RegistryEntry, contentHash: string): string {
  return approvalKey({
    source: entry.source.id,
    skill: entry.address,
    contentHash,
    subject: 'activation',
  });
}

const RULE = 'untrusted-activation';

function reasonFor(entry: RegistryEntry, triggeredBy: ActivationTrigger): string {
  return `Skill ${entry.address} comes from the untrusted source ${entry.source.id}, and the ${triggeredBy === 'router' ? 'router' : 'model'}, not the user, chose it: its instructions would enter the model's context`;
}

function call(decision: 'allow' | 'ask' | 'deny') {
  return [{ tool: 'activate_skill', decision }];
}

function decisionRecord(
  entry: RegistryEntry,
  contentHash: string,
  triggeredBy: ActivationTrigger,
  effect: 'allow' | 'ask' | 'deny',
  rule: string,
  reason: string,
): AuditEventInput {
  return {
    event: 'permission-decide',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    triggered_by: triggeredBy,
    tool_or_script_calls: call(effect),
    details: { effect, rule, reason, subject: 'activation' },
  };
}

function approveRecord(
  entry: RegistryEntry,
  contentHash: string,
  triggeredBy: ActivationTrigger,
  scope: 'once' | 'always',
): AuditEventInput {
  return {
    event: 'permission-approve',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    triggered_by: triggeredBy,
    tool_or_script_calls: call('allow'),
    details: { scope, by: 'user', subject: 'activation' },
  };
}

/**
 * The approval already given for this content ("always"), recorded as the policy's decision;
 * undefined when there is none (the caller asks, or refuses).
 */
export function storedActivationApproval(
  host: ActivationApprovalHost,
  entry: RegistryEntry,
  contentHash: string,
  triggeredBy: ActivationTrigger,
): 'stored' | undefined {
  if (host.approvals?.has(activationApprovalKey(entry, contentHash)) !== true) return undefined;
  host.record(
    decisionRecord(
      entry,
      contentHash,
      triggeredBy,
      'allow',
      'approval',
      `Approved earlier for this exact content (${contentHash.slice(0, 12)})`,
    ),
  );
  return 'stored';
}

/** The refusal of an activation that needs a confirmation nobody can give here. */
export function activationNeedsConfirmation(
  host: ActivationApprovalHost,
  entry: RegistryEntry,
  contentHash: string,
  triggeredBy: ActivationTrigger,
  why: string,
): SkillhostError {
  const reason = reasonFor(entry, triggeredBy);
  host.record(decisionRecord(entry, contentHash, triggeredBy, 'ask', RULE, reason));
  return new SkillhostError(
    'PERMISSION_REQUIRED',
    `Activating ${entry.address} needs the user's confirmation (${why}): ${reason}`,
    { details: { rule: RULE, skill: entry.address } },
  );
}

/**
 * Asks the user (through `confirm`) whether an untrusted skill the model or the router chose
 * may be activated: the question and the answer are recorded; "always" is stored for this exact
 * content; "no" throws PERMISSION_DENIED, and no `confirm` PERMISSION_REQUIRED.
 */
export async function askActivationApproval(
  host: ActivationApprovalHost,
  entry: RegistryEntry,
  contentHash: string,
  triggeredBy: 'model' | 'router',
): Promise<'once' | 'always'> {
  const confirm = host.confirm;
  if (confirm === undefined) {
    throw activationNeedsConfirmation(
      host,
      entry,
      contentHash,
      triggeredBy,
      'no one can be asked here',
    );
  }
  const reason = reasonFor(entry, triggeredBy);
  host.record(decisionRecord(entry, contentHash, triggeredBy, 'ask', RULE, reason));
  const answer = await confirm({
    kind: 'activation',
    skill: entry.address,
    source: entry.source.id,
    trusted: entry.source.trust === 'trusted',
    contentHash,
    triggeredBy,
    description: sanitizeCatalogText(entry.metadata?.description ?? '').text,
    reason,
  });
  if (answer === 'always') {
    host.record(approveRecord(entry, contentHash, triggeredBy, 'always'));
    host.approvals?.add(activationApprovalKey(entry, contentHash), {
      kind: 'activation',
      skill: entry.address,
      contentHash,
    });
    return 'always';
  }
  if (answer === 'yes') {
    host.record(approveRecord(entry, contentHash, triggeredBy, 'once'));
    return 'once';
  }
  host.record(decisionRecord(entry, contentHash, triggeredBy, 'deny', 'user', 'The user refused'));
  throw new SkillhostError('PERMISSION_DENIED', `Activating ${entry.address} was refused`, {
    details: { rule: 'user', skill: entry.address },
  });
}
