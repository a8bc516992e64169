import {
  buildSkillSetup,
  describeCode,
  planSkillSetup,
  type RegistryEntry,
  SkillhostError,
  type SkillRuntime,
  type SkillSetupPlan,
} from '../../node/index.js';
import { parseArgs, timeoutOption, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { REFUSED } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { writeWithBackpressure } from '../io.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { environmentsFolder, openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

const REFUSALS = new Set(['PERMISSION_REQUIRED', 'PERMISSION_DENIED', 'SETUP_REFUSED']);

/** The usable copy of a skill (a skipped one, or one of an untrusted project, cannot be set up). */
function usableSkill(runtime: SkillRuntime, name: string): RegistryEntry {
  const entry = runtime.resolve(name);
  if (entry === undefined)
    throw new SkillhostError('SKILL_NOT_FOUND', `No skill named ${JSON.stringify(name)}`);
  if (entry.status === 'skipped' || entry.status === 'untrusted')
    throw new SkillhostError(
      'SKILL_UNAVAILABLE',
      `Skill ${entry.address} is ${entry.status === 'skipped' ? 'skipped: it has errors' : 'in a project folder that is not trusted'}`,
    );
  return entry;
}

const STATES: Record<SkillSetupPlan['state'], string> = {
  ready: 'already made for this exact content; made again (--force)',
  missing: 'new',
  stale: 'new: the skill changed since its last setup, whose environment this replaces',
  incomplete: 'made again: an earlier setup of this content stopped half-way',
};

/** The plan as the user is shown it: what is declared and exactly what runs. */
function describePlan(entry: RegistryEntry, plan: SkillSetupPlan): string {
  const trusted = entry.source.trust === 'trusted';
  const lines = [
    `Skill ${entry.address}, ${trusted ? 'trusted' : 'UNTRUSTED'}, content sha256 ${plan.contentHash.slice(0, 16)}…`,
    `Environment ${plan.folder} (${STATES[plan.state]})`,
  ];
  if (plan.declared.python !== undefined) {
    lines.push('Python packages (scripts/requirements.txt):');
    lines.push(...plan.declared.python.map((line) => `  ${line}`));
    if (plan.declared.python.length === 0) lines.push('  (none)');
  }
  if (plan.declared.node !== undefined) {
    const { packages, lockfile } = plan.declared.node;
    lines.push(
      `Node packages (scripts/package.json${lockfile === undefined ? ', no lockfile' : `, locked by ${lockfile}`}):`,
    );
    lines.push(...packages.map((item) => `  ${item}`));
    if (packages.length === 0) lines.push('  (none)');
  }
  const set = Object.entries(plan.environment)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}=${value}`);
  const removed = Object.entries(plan.environment)
    .filter(([, value]) => value === null)
    .map(([name]) => name);
  lines.push(
    `Runs on this machine, outside the sandbox, as you, in a copy of the skill (${plan.copy}: its files, no links, no installer configuration):`,
    ...plan.commands.map(
      (command) =>
        `  $ ${command.argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' ')}`,
    ),
    `  in ${[...new Set(plan.commands.map((command) => command.cwd))].join(', ')}, with your environment, ${set.join(' ')} set and ${removed.join(' ')} removed`,
    plan.scripts === 'allowed'
      ? 'Package scripts: ALLOWED (--allow-scripts): packages may run their own build and install code on this machine, outside the sandbox'
      : 'Package scripts: not run (pip installs wheels only, npm runs with --ignore-scripts; --allow-scripts to allow them)',
  );
  return `${lines.map((line) => printable(line)).join('\n')}\n`;
}

/** The user's go-ahead: --yes, or yes at the terminal; refused without one. */
async function confirm(io: CliIO, entry: RegistryEntry, plan: SkillSetupPlan): Promise<void> {
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true)
    throw new SkillhostError(
      'PERMISSION_REQUIRED',
      `Setting up ${entry.address} runs the commands above on this machine and needs your confirmation, but nobody can be asked here: run skillhost setup ${entry.name} --yes to approve them`,
    );
  io.stderr.write(
    `Install ${plan.scripts === 'allowed' ? 'WITH package scripts ' : ''}for ${printable(entry.address)}${entry.source.trust === 'trusted' ? '' : ' (UNTRUSTED)'}? [y]es / [n]o: `,
  );
  const answer = (await input.readLine())?.trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes')
    throw new SkillhostError('PERMISSION_DENIED', `Setting up ${entry.address} was refused`);
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    yes: { type: 'boolean' },
    force: { type: 'boolean' },
    'find-links': { type: 'string' },
    'index-url': { type: 'string' },
    registry: { type: 'string' },
    offline: { type: 'boolean' },
    'allow-scripts': { type: 'boolean' },
    timeout: { type: 'string' },
  });
  if (args.positionals.length !== 1 || args.rest.length > 0)
    throw new UsageError('setup needs one NAME');
  const [name] = args.positionals as [string];
  const timeoutMs = timeoutOption(args.options.timeout);
  const json = args.options.json === true;
  const given = (option: string) =>
    args.options[option] === undefined ? undefined : String(args.options[option]);
  const findLinks = given('find-links');
  let opened: ReturnType<typeof openRuntime> | undefined;
  try {
    opened = openRuntime(args, deps, io, { workspace: null });
    const { runtime } = opened;
    const entry = usableSkill(runtime, name);
    const environments = environmentsFolder(deps);
    const plan = planSkillSetup(entry.directory, {
      environments,
      env: deps.env,
      homeDir: deps.homeDir,
      ...(findLinks === undefined ? {} : { findLinks: deps.resolvePath(deps.cwd, findLinks) }),
      ...(given('index-url') === undefined ? {} : { indexUrl: given('index-url') as string }),
      ...(given('registry') === undefined ? {} : { registry: given('registry') as string }),
      offline: args.options.offline === true,
      allowScripts: args.options['allow-scripts'] === true,
    });
    if (plan === undefined) {
      const text = `${entry.address} declares no dependencies (no scripts/requirements.txt or scripts/package.json): nothing to set up\n`;
      await writeWithBackpressure(
        io.stdout,
        json ? `${JSON.stringify({ skill: entry.address, state: 'none' }, null, 2)}\n` : text,
      );
      return 0;
    }
    if (plan.state === 'ready' && args.options.force !== true) {
      await writeWithBackpressure(
        io.stdout,
        json
          ? `${JSON.stringify({ skill: entry.address, ...plan }, null, 2)}\n`
          : `${printable(entry.address)} is set up for its exact content: ${printable(plan.folder)} (--force to make it again)\n`,
      );
      return 0;
    }
    if (!json) await writeWithBackpressure(io.stdout, describePlan(entry, plan));
    if (args.options.yes !== true) await confirm(io, entry, plan);
    const details = {
      folder: plan.folder,
      kinds: plan.kinds,
      scripts: plan.scripts,
      approved_by: args.options.yes === true ? 'flag' : 'user',
      trusted: entry.source.trust === 'trusted',
    };
    runtime.recordSetup(name, {
      phase: 'approve',
      contentHash: plan.contentHash,
      commands: plan.commands,
      details,
    });
    let result: Awaited<ReturnType<typeof buildSkillSetup>>;
    try {
      result = await buildSkillSetup(plan, {
        env: deps.env,
        now: deps.now,
        onOutput: (text) =>
          io.stderr.write(
            text
              .split('\n')
              .map((line) => printable(line.replace(/\r$/, ''), true))
              .join('\n'),
          ),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    } catch (error) {
      if (SkillhostError.isInstance(error))
        runtime.recordSetup(name, {
          phase: 'end',
          contentHash: plan.contentHash,
          commands: plan.commands,
          details: { folder: plan.folder, outcome: 'failed' },
          error,
        });
      throw error;
    }
    runtime.recordSetup(name, {
      phase: 'end',
      contentHash: plan.contentHash,
      commands: result.steps,
      details: { folder: result.folder, outcome: 'ready' },
    });
    await writeWithBackpressure(
      io.stdout,
      json
        ? `${JSON.stringify({ skill: entry.address, ...plan, state: 'ready', steps: result.steps }, null, 2)}\n`
        : `Ready: ${printable(result.folder)}. Runs of ${printable(entry.name)}'s scripts use it (read-only) while the skill stays as it is now; a changed skill needs skillhost setup again.\n`,
    );
    return 0;
  } catch (error) {
    if (SkillhostError.isInstance(error)) {
      io.stderr.write(
        `skillhost: error ${error.code}: ${printable(error.message)}\n  = hint: ${describeCode(error.code).hint}\n`,
      );
      return REFUSALS.has(error.code) ? REFUSED : 1;
    }
    throw error;
  } finally {
    await opened?.close();
  }
}
