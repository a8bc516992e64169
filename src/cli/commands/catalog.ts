import { type CatalogFormat, loadTokenCounter, renderCatalog } from '../../node/index.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { openRegistry, SOURCE_OPTIONS } from '../registry-options.js';

const formats = new Set(['xml', 'markdown', 'json']);

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...SOURCE_OPTIONS,
    format: { type: 'string' },
    budget: { type: 'string' },
    explain: { type: 'boolean' },
    locations: { type: 'boolean' },
  });
  if (args.positionals.length > 0) throw new UsageError('catalog takes no arguments');
  const format = String(args.options.format ?? 'xml');
  if (!formats.has(format))
    throw new UsageError(`unknown format '${format}' (use xml, markdown or json)`);
  const budget =
    args.options.budget === undefined ? undefined : integerOption(args.options.budget, 'budget', 0);
  const { registry } = openRegistry(args, deps);
  const skills = registry.active().map((entry) => ({
    name: entry.name,
    description: entry.metadata?.description ?? '',
    location: entry.skillFile,
    trusted: entry.source.trust === 'trusted',
  }));
  const countTokens =
    budget !== undefined || args.options.explain === true ? await loadTokenCounter() : undefined;
  const result = renderCatalog(skills, {
    format: format as CatalogFormat,
    ...(budget === undefined ? {} : { budget }),
    ...(countTokens === undefined ? {} : { countTokens }),
    includeLocation: args.options.locations === true,
  });
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify(
        {
          format: result.format,
          text: result.text,
          tokens: result.tokens,
          exact: result.exact,
          counts: result.counts,
          explain: result.explain,
          ...(args.options.explain === true ? { decisions: result.decisions } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (result.text === '')
    io.stderr.write('No usable skills: no catalog (and no activation tool) is offered.\n');
  else io.stdout.write(`${result.text}\n`);
  if (args.options.explain === true) {
    io.stderr.write(`${result.explain.join('\n')}\n`);
    for (const decision of result.decisions) {
      if (decision.level !== 'full')
        io.stderr.write(
          `  ${decision.level.padEnd(6)} ${decision.name}${decision.trusted ? '' : ' (untrusted)'}\n`,
        );
    }
  }
  return 0;
}
