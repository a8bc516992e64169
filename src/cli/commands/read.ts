import { readSkillResource, SkillhostError } from '../../node/index.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { openRegistry, SOURCE_OPTIONS } from '../registry-options.js';

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    ...SOURCE_OPTIONS,
    'max-bytes': { type: 'string' },
    'no-binary': { type: 'boolean' },
  });
  if (args.positionals.length !== 2)
    throw new UsageError('read needs a NAME and a PATH inside the skill');
  const [name, path] = args.positionals as [string, string];
  const { registry } = openRegistry(args, deps);
  const entry = registry.resolve(name);
  if (entry === undefined || entry.status === 'skipped' || entry.status === 'untrusted') {
    throw new SkillhostError(
      entry === undefined ? 'SKILL_NOT_FOUND' : 'SKILL_UNAVAILABLE',
      entry === undefined
        ? `No skill named ${JSON.stringify(name.slice(0, 200))}`
        : `Skill ${entry.address} is ${entry.status}`,
    );
  }
  const maxBytes = integerOption(args.options['max-bytes'], 'max-bytes', 1024 * 1024);
  const resource = readSkillResource(deps.fs, entry, path, {
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
}
