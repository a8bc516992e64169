import { RUNTIME_TOOLS_ALLOWED_BY_DEFAULT } from '../../internal.js';
import { evaluate, parseAllowedTools, SkillhostError } from '../../node/index.js';
import { type ParsedArgs, UsageError } from '../args.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import { openRegistry } from '../registry-options.js';
import { policyConfig } from '../runtime-options.js';
import { usableEntry } from './policy.js';

/**
 * What the policy decides on a shell command while the skill NAME is active under the command
 * line's options: decision, rule and reason. Exit 0 when a decision was made.
 */
export function check(args: ParsedArgs, name: string, io: CliIO, deps: CliDeps): number {
  const command = args.options.bash;
  if (typeof command !== 'string' || command.trim() === '')
    throw new UsageError("policy check needs --bash 'COMMAND'");
  const config = policyConfig(args);
  const { registry } = openRegistry(args, deps);
  const entry = usableEntry(registry, name);
  // The skill must be one the host lets be activated, as the runtime checks it.
  const gate = evaluate(
    { tool: 'activate_skill', path: name },
    {
      config: {
        ...config,
        defaults: Object.fromEntries(
          RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.map((tool) => [tool, 'allow']),
        ),
      },
      active: [],
    },
  );
  if (gate.effect !== 'allow')
    throw new SkillhostError(
      'PERMISSION_DENIED',
      `Skill ${entry.address} cannot be activated under these options: ${gate.reason}`,
    );
  const decision = evaluate(
    { tool: 'bash', command },
    {
      config,
      active: [
        {
          address: entry.address,
          source: entry.source.id,
          trusted: entry.source.trust === 'trusted',
          contentHash: registry.contentHash(entry),
          grants: parseAllowedTools(entry.metadata?.allowedTools ?? '').grants,
        },
      ],
    },
  );
  if (args.options.json === true) {
    const { decision: verdict, rule, reason } = decision;
    io.stdout.write(`${JSON.stringify({ decision: verdict, rule, reason }, null, 2)}\n`);
    return 0;
  }
  const shadow =
    decision.effect === decision.decision
      ? ''
      : `\neffect:   ${decision.effect} (shadow mode: the decision is recorded, not enforced)`;
  io.stdout.write(
    `decision: ${decision.decision}\nrule:     ${decision.rule}\nreason:   ${printable(decision.reason)}${shadow}\n`,
  );
  return 0;
}
