import { parseAllowedTools } from './allowed-tools.js';
import { canonicalTool } from './tools.js';

export type GrantStatus =
  | 'granted'
  | 'narrows-only'
  | 'untrusted'
  | 'unavailable'
  | 'denied'
  | 'invalid';

/** One entry of a skill's `allowed-tools`, judged against a host. */
export interface GrantExplanation {
  readonly entry: string;
  readonly tools: readonly string[];
  readonly status: GrantStatus;
  readonly reason: string;
}

/**
 * Entry by entry: what a skill requests, what the host grants, what it denies, and why.
 * `granted` entries pre-approve matching calls while the skill is active; nothing else does.
 */
export function explainGrants(
  allowedTools: string | undefined,
  options: {
    readonly trusted: boolean;
    readonly hostTools: readonly string[];
    readonly deny?: readonly string[];
  },
): GrantExplanation[] {
  if (allowedTools === undefined || allowedTools.trim() === '') return [];
  const parsed = parseAllowedTools(allowedTools);
  const ceiling = new Set(options.hostTools.map((name) => canonicalTool(name) ?? name));
  const denyRules = parseAllowedTools((options.deny ?? []).join(' ')).grants;
  const explanations: Array<GrantExplanation & { offset: number }> = [];
  for (const problem of parsed.problems) {
    if (problem.kind === 'too-broad') continue;
    explanations.push({
      entry: problem.raw,
      tools: [],
      status: 'invalid',
      reason: problem.message,
      offset: problem.offset,
    });
  }
  for (const grant of parsed.grants) {
    const missing = grant.tools.filter((tool) => !ceiling.has(tool));
    const present = grant.tools.filter((tool) => ceiling.has(tool));
    const base = { entry: grant.raw, tools: grant.tools, offset: grant.offset };
    if (present.length === 0) {
      explanations.push({
        ...base,
        status: 'unavailable',
        reason: `The host does not have ${missing.join(', ')}: dropped, never added`,
      });
      continue;
    }
    const denied = denyRules.find(
      (rule) =>
        rule.tools.some((tool) => grant.tools.includes(tool)) &&
        rule.command === undefined &&
        rule.path === undefined,
    );
    if (denied !== undefined) {
      explanations.push({ ...base, status: 'denied', reason: `The host denies '${denied.raw}'` });
      continue;
    }
    if (!grant.preApprovable) {
      explanations.push({
        ...base,
        status: 'narrows-only',
        reason: 'Too broad to pre-approve: calls still ask; it only counts when narrowing',
      });
      continue;
    }
    if (!options.trusted) {
      explanations.push({
        ...base,
        status: 'untrusted',
        reason: 'The skill is untrusted: its request never skips confirmation',
      });
      continue;
    }
    const partial =
      missing.length > 0 ? ` (the host lacks ${missing.join(', ')}, which is dropped)` : '';
    explanations.push({
      ...base,
      status: 'granted',
      reason: `Pre-approves matching ${present.join(', ')} calls while the skill is active${partial}`,
    });
  }
  return explanations
    .sort((a, b) => a.offset - b.offset)
    .map(({ offset: _offset, ...rest }) => rest);
}
