import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { JSON_OPTION } from '../registry-options.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    'max-bytes': { type: 'string' },
    'no-binary': { type: 'boolean' },
  });
  if (args.positionals.length !== 2)
    throw new UsageError('read needs a NAME and a PATH inside the skill');
  const [name, path] = args.positionals as [string, string];
  const maxBytes = integerOption(args.options['max-bytes'], 'max-bytes', 1024 * 1024);
  const { runtime, close } = openRuntime(args, deps, io);
  try {
    const resource = runtime.readResource(name, path, {
      maxBytes,
      binary: args.options['no-binary'] === true ? 'refuse' : 'base64',
    });
    if (args.options.json === true) {
      io.stdout.write(`${JSON.stringify(resource, null, 2)}\n`);
    } else if (resource.content.kind === 'text') {
      io.stdout.write(resource.content.text);
    } else {
      io.stderr.write(
        `${resource.path} is binary (${resource.mediaType}, ${resource.size} bytes); use --json for base64\n`,
      );
    }
    return 0;
  } finally {
    await close();
  }
}
