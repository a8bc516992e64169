import { type SkillRegistry, unusableReason } from '../../internal.js';
import type { RegistryEntry } from '../../node/index.js';
import { SkillhostError } from '../../node/index.js';
import { type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { RUNTIME_OPTIONS } from '../runtime-options.js';

/** The skill NAME (or NAME@SOURCE) as the runtime would find it: usable, or a coded error. */
export function usableEntry(registry: SkillRegistry, name: string): RegistryEntry {
  const entry = registry.resolve(name);
  if (entry === undefined)
    throw new SkillhostError(
      'SKILL_NOT_FOUND',
      `No skill named ${JSON.stringify(name.slice(0, 200))}`,
    );
  const unusable = unusableReason(entry.status);
  if (unusable !== undefined) {
    throw new SkillhostError(
      'SKILL_UNAVAILABLE',
      `Skill ${entry.address} is ${entry.status}: ${unusable}`,
    );
  }
  return entry;
}

const USAGE =
  "usage: skillhost policy explain [options] NAME, or skillhost policy check [options] NAME --bash 'COMMAND'";

/** `skillhost policy explain NAME` and `skillhost policy check NAME --bash COMMAND`. */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args: ParsedArgs = parseArgs(argv, { ...RUNTIME_OPTIONS, bash: { type: 'string' } });
  const [action, name, ...extra] = args.positionals;
  if (name === undefined || extra.length > 0 || args.rest.length > 0) throw new UsageError(USAGE);
  if (action === 'explain') {
    if (args.options.bash !== undefined) throw new UsageError('--bash goes with policy check');
    return (await import('./policy-explain.js')).explain(args, name, io, deps);
  }
  if (action === 'check') return (await import('./policy-check.js')).check(args, name, io, deps);
  throw new UsageError(USAGE);
}
