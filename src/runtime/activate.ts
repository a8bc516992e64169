import { createDiagnostic } from '../diagnostics.js';
import type { Activation, ActivationTrigger, SkillSession } from '../disclosure/activation.js';
import { SkillhostError } from '../errors.js';
import { parseAllowedTools } from '../policy/allowed-tools.js';
import type { ActiveSkillGrants, PolicyDecision, ToolRequest } from '../policy/engine.js';
import { explainGrants } from '../policy/explain.js';
import { quote } from '../quote.js';
import type { RegistryEntry } from '../registry/registry.js';
import {
  type ActivationApprovalHost,
  activationNeedsConfirmation,
  askActivationApproval,
  pendingApproval,
} from './activation-approval.js';
import { activationRecord, failureRecord } from './records.js';

/** Who activates, and whether the body is sent again to a conversation that has seen it. */
export type ActivationOptions = {
  readonly triggeredBy: ActivationTrigger;
  readonly resend?: boolean;
};

/** What activating needs of the runtime: the policy's gate, the session, the grants, the trail. */
export interface ActivationHost extends ActivationApprovalHost {
  readonly session: SkillSession;
  /** The host's tools (a grant for another tool is dropped, and said so). */
  readonly hostTools: readonly string[];
  /** The policy's word on the runtime's own capability; throws when refused. */
  gate(request: ToolRequest): PolicyDecision;
  /** Puts an activated skill's grants in force for the current turn. */
  grant(grants: ActiveSkillGrants): void;
}

type Approved = { readonly kind: 'stored' | 'once' | 'always'; readonly hash: string };

/**
 * Activates without asking anyone (`SkillRuntime.activate`): an activation that needs the user's
 * confirmation and has no stored approval is refused with PERMISSION_REQUIRED.
 */
export function activateWithoutAsking(
  host: ActivationHost,
  name: string,
  options: ActivationOptions,
): Activation {
  try {
    const gate = host.gate({ tool: 'activate_skill', path: name });
    const pending = pendingApproval(host, name, options.triggeredBy);
    if (pending.kind === 'ask') {
      throw activationNeedsConfirmation(
        host,
        pending.entry,
        pending.hash,
        pending.triggeredBy,
        'activate() never asks; requestActivation() does',
      );
    }
    return complete(host, name, options, gate, pending.kind === 'stored' ? pending : undefined);
  } catch (error) {
    host.record(failureRecord('skill-activate', name, error, { triggeredBy: options.triggeredBy }));
    throw error;
  }
}

/** Activates, asking the user first when needed (`SkillRuntime.requestActivation`). */
export async function activateAsking(
  host: ActivationHost,
  name: string,
  options: ActivationOptions,
): Promise<Activation> {
  try {
    const gate = host.gate({ tool: 'activate_skill', path: name });
    const pending = pendingApproval(host, name, options.triggeredBy);
    if (pending.kind !== 'ask')
      return complete(host, name, options, gate, pending.kind === 'stored' ? pending : undefined);
    const answer = await askActivationApproval(
      host,
      pending.entry,
      pending.hash,
      pending.triggeredBy,
    );
    return complete(host, name, options, gate, { kind: answer, hash: pending.hash });
  } catch (error) {
    host.record(failureRecord('skill-activate', name, error, { triggeredBy: options.triggeredBy }));
    throw error;
  }
}

/**
 * Activates after the gate and any approval: the approved content must be the content read, or
 * the activation is undone and refused. Records the activation and puts its grants in force.
 */
function complete(
  host: ActivationHost,
  name: string,
  options: ActivationOptions,
  gate: PolicyDecision,
  approved: Approved | undefined,
): Activation {
  const session = host.session;
  if (options.resend === true) {
    const known = host.resolve(name);
    if (known !== undefined) session.deactivate(known.address);
  }
  const activation = session.activate(name, { triggeredBy: options.triggeredBy });
  if (approved !== undefined && activation.contentHash !== approved.hash) {
    session.deactivate(activation.address);
    throw new SkillhostError(
      'PERMISSION_REQUIRED',
      `Skill ${activation.address} changed after its activation was approved; it must be approved again`,
    );
  }
  const entry = host.resolve(activation.address) as RegistryEntry;
  // A grant for a tool the host does not have is dropped here, never added: say so.
  const dropped = explainGrants(entry.metadata?.allowedTools, {
    trusted: entry.source.trust === 'trusted',
    hostTools: host.hostTools,
  }).filter((explanation) => explanation.status === 'unavailable');
  host.record(
    activationRecord(
      activation,
      entry,
      gate,
      dropped.map((explanation) => explanation.entry),
      approved?.kind,
    ),
  );
  host.grant({
    address: activation.address,
    source: activation.source,
    trusted: activation.trust === 'trusted',
    contentHash: activation.contentHash,
    grants: parseAllowedTools(entry.metadata?.allowedTools ?? '').grants,
  });
  if (dropped.length === 0) return activation;
  return {
    ...activation,
    diagnostics: [
      ...activation.diagnostics,
      ...dropped.map((explanation) =>
        createDiagnostic(
          'ALLOWED_TOOLS_UNAVAILABLE',
          'warning',
          `allowed-tools entry ${quote(explanation.entry)}: ${explanation.reason}`,
          entry.skillFile,
        ),
      ),
    ],
  };
}
