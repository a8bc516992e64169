import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

const triggers = new Set(['model', 'user', 'router']);

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, { ...RUNTIME_OPTIONS, 'triggered-by': { type: 'string' } });
  if (args.positionals.length !== 1)
    throw new UsageError('activate needs exactly one NAME (or NAME@SOURCE)');
  const triggeredBy = String(args.options['triggered-by'] ?? 'user');
  if (!triggers.has(triggeredBy))
    throw new UsageError('--triggered-by must be model, user or router');
  const { runtime, close } = openRuntime(args, deps, io);
  try {
    const activation = runtime.activate(args.positionals[0] as string, {
      triggeredBy: triggeredBy as 'model' | 'user' | 'router',
    });
    if (args.options.json === true) io.stdout.write(`${JSON.stringify(activation, null, 2)}\n`);
    else io.stdout.write(`${activation.text}\n`);
    return 0;
  } finally {
    await close();
  }
}
