import {
  type AgentBase,
  type Diagnostic,
  defaultAgentBases,
  listAgents,
  loadTokenCounter,
  readAgent,
  resolveModelPlan,
  SkillhostError,
} from '../../node/index.js';
import { type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, formatDiagnostic } from '../format.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import { JSON_OPTION, sourceSettings } from '../registry-options.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';
import { createStyle } from '../style.js';

export const AGENT_OPTIONS = {
  ...RUNTIME_OPTIONS,
  ...JSON_OPTION,
  agents: { type: 'string', multiple: true },
  model: { type: 'string' },
  provider: { type: 'string' },
} as const;

/** `--agents DIR`s, then the project's agents (once the project is trusted), then the user's. */
export function agentBases(args: ParsedArgs, deps: CliDeps): AgentBase[] {
  const settings = sourceSettings(args, deps);
  const noDefaults = args.options['default-sources'] === false;
  return defaultAgentBases({
    directories: ((args.options.agents as readonly string[] | undefined) ?? []).map((folder) =>
      deps.resolvePath(deps.cwd, folder),
    ),
    ...(noDefaults || !settings.projectTrusted ? {} : { projectDir: settings.projectDir }),
    ...(noDefaults ? {} : { homeDir: deps.homeDir }),
  });
}

function printDiagnostics(io: CliIO, deps: CliDeps, diagnostics: readonly Diagnostic[]): void {
  const style = createStyle(io.stderr, deps.env);
  for (const diagnostic of diagnostics)
    io.stderr.write(`${formatDiagnostic(diagnostic, undefined, deps.cwd, style)}\n`);
}

function list(args: ParsedArgs, io: CliIO, deps: CliDeps): number {
  if (args.positionals.length > 1) throw new UsageError('agent list takes no NAME');
  const bases = agentBases(args, deps);
  const agents = listAgents(deps.fs, bases);
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify(
        {
          bases: bases.map((base) => ({ directory: base.directory, kind: base.kind })),
          agents: agents.map((agent) => ({
            name: agent.name,
            description: agent.description ?? null,
            path: agent.directory,
            base: agent.base.kind,
            valid: agent.valid,
            shadowed: agent.shadowed,
            diagnostics: agent.diagnostics,
          })),
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (agents.length === 0) {
    io.stdout.write(
      `No agents in ${bases.map((base) => printable(displayPath(base.directory, deps.cwd))).join(', ') || '(no agents folders)'}\n`,
    );
    return 0;
  }
  const width = Math.max(...agents.map((agent) => agent.name.length));
  for (const agent of agents) {
    const status = !agent.valid ? 'invalid' : agent.shadowed ? 'shadowed' : agent.base.kind;
    io.stdout.write(
      `${printable(agent.name.padEnd(width))}  ${status.padEnd(8)}  ${printable(displayPath(agent.directory, deps.cwd))}${agent.description === undefined ? '' : `\n${' '.repeat(width + 12)}${printable(agent.description.slice(0, 200))}`}\n`,
    );
  }
  return 0;
}

async function show(args: ParsedArgs, io: CliIO, deps: CliDeps, name: string): Promise<number> {
  const definition = readAgent(deps.fs, agentBases(args, deps), name);
  const { manifest } = definition;
  const plan = resolveModelPlan(manifest.models, {
    ...(args.options.model === undefined ? {} : { model: String(args.options.model) }),
    ...(args.options.provider === undefined ? {} : { provider: String(args.options.provider) }),
  });
  const { runtime, close } = openRuntime(args, deps, io);
  try {
    const skill = (skillName: string) => {
      const entry = runtime.resolve(skillName);
      return {
        name: skillName,
        status: entry === undefined ? 'missing' : entry.status,
        path: entry?.directory ?? null,
      };
    };
    const document = {
      name: manifest.name,
      description: manifest.description ?? null,
      path: definition.directory,
      provider: plan.provider,
      model: plan.model,
      fallback: plan.fallback ?? null,
      plan,
      contextBudget: manifest.contextBudget ?? null,
      skills: manifest.skills.map(skill),
      deferredSkills: manifest.deferredSkills?.map(skill) ?? null,
      tools: manifest.tools ?? null,
      diagnostics: definition.diagnostics,
    };
    if (args.options.json === true) {
      io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      return 0;
    }
    printDiagnostics(io, deps, definition.diagnostics);
    const lines = [
      `${printable(manifest.name)}${manifest.description === undefined ? '' : ` — ${printable(manifest.description)}`}`,
      `  path:      ${printable(displayPath(definition.directory, deps.cwd))}`,
      `  provider:  ${plan.provider} (${plan.providerFrom})`,
      `  model:     ${plan.model === '' ? "the agent's own default" : printable(plan.model)}${plan.alias === undefined ? '' : ` (alias ${plan.alias})`} (${plan.modelFrom})`,
      `  fallback:  ${printable(plan.fallback ?? '(none)')}`,
      `  budget:    ${manifest.contextBudget === undefined ? '(none)' : `${manifest.contextBudget} tokens`}`,
      `  skills:    ${document.skills.map((item) => `${printable(item.name)} [${item.status}]`).join(', ') || '(none)'}`,
      `  deferred:  ${document.deferredSkills === null ? '(every usable skill of the sources)' : document.deferredSkills.map((item) => `${printable(item.name)} [${item.status}]`).join(', ') || '(none)'}`,
      `  tools:     ${manifest.tools === undefined ? "(the host's)" : printable(manifest.tools.join(' ')) || '(skill tools only)'}`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await close();
  }
}

async function prompt(args: ParsedArgs, io: CliIO, deps: CliDeps, name: string): Promise<number> {
  const bases = agentBases(args, deps);
  const countTokens = await loadTokenCounter();
  const { runtime, close } = openRuntime(args, deps, io);
  try {
    const agent = runtime.loadAgent(name, {
      bases,
      countTokens,
      ...(args.options.model === undefined ? {} : { model: String(args.options.model) }),
      ...(args.options.provider === undefined ? {} : { provider: String(args.options.provider) }),
    });
    if (args.options.json === true) {
      io.stdout.write(
        `${JSON.stringify(
          {
            name: agent.manifest.name,
            provider: agent.plan.provider,
            model: agent.plan.model,
            fallback: agent.plan.fallback ?? null,
            systemPrompt: agent.systemPrompt,
            catalog: agent.catalog,
            tokens: agent.tokens,
            contextBudget: agent.contextBudget ?? null,
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    printDiagnostics(io, deps, agent.diagnostics);
    const rule = (title: string) => `──── ${title} `.padEnd(72, '─');
    const parts = [
      rule(`system prompt (${agent.tokens.total - agent.tokens.catalog} tokens)`),
      agent.systemPrompt,
      rule(`catalog (${agent.tokens.catalog} tokens, ${agent.catalogSkills.length} skills)`),
      agent.catalog === '' ? '(no progressive skills)' : agent.catalog,
      rule('tokens'),
      `instructions.md  ${agent.tokens.instructions}`,
      ...Object.entries(agent.tokens.skills).map(
        ([skill, count]) => `skill ${printable(skill)}  ${count}`,
      ),
      `catalog  ${agent.tokens.catalog}`,
      `total  ${agent.tokens.total}${agent.contextBudget === undefined ? '' : ` of ${agent.contextBudget} (context_budget)`}`,
      `model  ${agent.plan.provider} ${printable(agent.plan.model)}${agent.plan.fallback === undefined ? '' : `, fallback ${printable(agent.plan.fallback)}`}`,
    ];
    io.stdout.write(`${parts.join('\n')}\n`);
    return 0;
  } finally {
    await close();
  }
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  if (argv[0] === 'run') {
    // Its own options; loaded only when an agent runs.
    const { runAgentCommand } = await import('./agent-run.js');
    return runAgentCommand(argv.slice(1), io, deps);
  }
  const args = parseArgs(argv, AGENT_OPTIONS);
  const [action, name, ...extra] = args.positionals;
  try {
    if (action === 'list') return list(args, io, deps);
    if ((action === 'show' || action === 'prompt') && name !== undefined && extra.length === 0) {
      return action === 'show'
        ? await show(args, io, deps, name)
        : await prompt(args, io, deps, name);
    }
  } catch (error) {
    if (SkillhostError.isInstance(error) && error.diagnostics.length > 0)
      printDiagnostics(io, deps, error.diagnostics);
    throw error;
  }
  throw new UsageError('usage: skillhost agent list | show NAME | prompt NAME | run NAME [TASK]');
}
