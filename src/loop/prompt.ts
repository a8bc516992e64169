/** A preloaded skill as the agent loop's system prompt carries it. */
export interface PromptSkill {
  readonly name: string;
  readonly directory: string;
  readonly body: string;
}

/**
 * The system prompt of an agent run: the agent's instructions, each preloaded skill's body headed
 * by its directory (so relative paths in it resolve), then the catalog (L1). Built once per run
 * and sent byte for byte the same at every step, so the provider's prompt cache holds.
 */
export function agentSystemPrompt(parts: {
  readonly instructions: string;
  readonly skills: readonly PromptSkill[];
  readonly catalog: string;
}): string {
  const skills = parts.skills.map(
    (skill) =>
      `<skill name="${skill.name}">\nSkill directory: ${skill.directory}\nRelative paths in these instructions are relative to that directory.\n\n${skill.body.trim()}\n</skill>`,
  );
  const catalog =
    parts.catalog === ''
      ? []
      : [
          `Skills you can activate with skillhost_activate when the task calls for one:\n${parts.catalog}`,
        ];
  return [parts.instructions.trim(), ...skills, ...catalog].join('\n\n');
}
