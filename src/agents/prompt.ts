import { SkillhostError } from '../errors.js';

/**
 * The agent's system prompt: instructions.md, then each preloaded skill's body in manifest order,
 * joined by a blank line — exactly `instructions + "\n\n" + bodyA + "\n\n" + bodyB ...`.
 */
export function joinSystemPrompt(instructions: string, bodies: readonly string[]): string {
  return [instructions, ...bodies].join('\n\n');
}

/** Token counts of the parts of an agent's prompt. */
export interface AgentPromptTokens {
  readonly instructions: number;
  /** Per preloaded skill, in manifest order. */
  readonly skills: Readonly<Record<string, number>>;
  readonly catalog: number;
  /** The whole: system prompt and catalog as they are sent (separators included). */
  readonly total: number;
}

/**
 * Fails with AGENT_BUDGET_EXCEEDED, naming the count of every part, when the prompt does not fit
 * the agent's `context_budget`.
 */
export function checkAgentBudget(
  agent: string,
  tokens: AgentPromptTokens,
  budget: number | undefined,
): void {
  if (budget === undefined || tokens.total <= budget) return;
  const parts = [
    `instructions.md ${tokens.instructions}`,
    ...Object.entries(tokens.skills).map(([name, count]) => `skill ${name} ${count}`),
    `catalog ${tokens.catalog}`,
  ];
  throw new SkillhostError(
    'AGENT_BUDGET_EXCEEDED',
    `Agent ${agent} needs ${tokens.total} tokens but its context_budget is ${budget}: ${parts.join(', ')}`,
    { details: { tokens, budget } },
  );
}
