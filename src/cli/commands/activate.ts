import { SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { REFUSED } from '../exit-codes.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

const triggers = new Set(['model', 'user', 'router']);

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    'triggered-by': { type: 'string' },
  });
  if (args.positionals.length !== 1)
    throw new UsageError('activate needs exactly one NAME (or NAME@SOURCE)');
  const triggeredBy = String(args.options['triggered-by'] ?? 'user');
  if (!triggers.has(triggeredBy))
    throw new UsageError('--triggered-by must be model, user or router');
  const { runtime, close } = openRuntime(args, deps, io);
  try {
    // An untrusted skill the model or the router chose is confirmed at the terminal first.
    const activation = await runtime.requestActivation(args.positionals[0] as string, {
      triggeredBy: triggeredBy as 'model' | 'user' | 'router',
    });
    if (args.options.json === true) io.stdout.write(`${JSON.stringify(activation, null, 2)}\n`);
    else io.stdout.write(`${activation.text}\n`);
    return 0;
  } catch (error) {
    if (
      SkillhostError.isInstance(error) &&
      (error.code === 'PERMISSION_REQUIRED' || error.code === 'PERMISSION_DENIED')
    ) {
      io.stderr.write(`skillhost: error ${error.code}: ${printable(error.message)}\n`);
      return REFUSED;
    }
    throw error;
  } finally {
    await close();
  }
}
