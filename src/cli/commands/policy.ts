import { explainGrants, parseAllowedTools } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../printable.js';
import { openRegistry } from '../registry-options.js';
import { hostTools, RUNTIME_OPTIONS } from '../runtime-options.js';

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, RUNTIME_OPTIONS);
  const [action, name, ...extra] = args.positionals;
  if (action !== 'explain' || name === undefined || extra.length > 0) {
    throw new UsageError('usage: skillhost policy explain NAME');
  }
  const { registry } = openRegistry(args, deps);
  const entry = registry.resolve(name);
  if (entry === undefined) {
    io.stderr.write(
      `skillhost: error SKILL_NOT_FOUND: no skill named ${JSON.stringify(printable(name))}\n`,
    );
    return 1;
  }
  const requested = entry.metadata?.allowedTools;
  const trusted = entry.source.trust === 'trusted';
  const tools = hostTools(args);
  const deny = (args.options.deny as readonly string[] | undefined) ?? [];
  const explanations = explainGrants(requested, { trusted, hostTools: tools, deny });
  const tooBroad = parseAllowedTools(requested ?? '').problems.filter(
    (problem) => problem.kind === 'too-broad',
  );
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify({ skill: entry.address, trust: entry.source.trust, status: entry.status, requested: requested ?? null, hostTools: tools, narrow: args.options.narrow === true, entries: explanations }, null, 2)}\n`,
    );
    return 0;
  }
  const lines = [`${printable(entry.address)} (${entry.source.trust}, ${entry.status})`];
  if (requested === undefined || requested.trim() === '') {
    lines.push('  allowed-tools: (none) — it pre-approves nothing; calls follow the host policy.');
  } else {
    lines.push(`  allowed-tools: ${printable(requested)}`);
    for (const item of explanations) {
      const tools = item.tools.length === 0 ? '' : ` → ${item.tools.join(', ')}`;
      lines.push(
        `  ${item.status.padEnd(12)} ${printable(item.entry)}${tools}: ${printable(item.reason)}`,
      );
    }
    if (tooBroad.length > 0 && args.options.narrow !== true) {
      lines.push(
        '  (Too-broad entries would only matter with --narrow, where they keep their tool available.)',
      );
    }
  }
  lines.push(
    args.options.narrow === true
      ? '  With --narrow, while this skill is active only the tools it lists can be used.'
      : '  A skill never adds a tool: anything not granted above asks for confirmation, and the host may deny it.',
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
