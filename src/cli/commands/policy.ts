import { type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { RUNTIME_OPTIONS } from '../runtime-options.js';

const USAGE = 'usage: skillhost policy explain [options] NAME';

/** `skillhost policy explain NAME`. */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args: ParsedArgs = parseArgs(argv, RUNTIME_OPTIONS);
  const [action, name, ...extra] = args.positionals;
  if (name === undefined || extra.length > 0 || args.rest.length > 0) throw new UsageError(USAGE);
  if (action === 'explain')
    return (await import('./policy-explain.js')).explain(args, name, io, deps);
  throw new UsageError(USAGE);
}
