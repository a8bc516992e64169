import { fullCatalogPieces } from '../../internal.js';
import {
  type CatalogFormat,
  type CatalogOptions,
  type CatalogResult,
  type CatalogSkill,
  loadTokenCounter,
  type RegistryEntry,
  readSkillUsage,
  renderCatalog,
} from '../../node/index.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { writeWithBackpressure } from '../io.js';
import { printable } from '../printable.js';
import {
  auditLogPath,
  configFile,
  JSON_OPTION,
  openRegistry,
  SOURCE_OPTIONS,
} from '../registry-options.js';

const formats = new Set(['xml', 'markdown', 'json']);

/**
 * The catalog under the options, doing only the work the result needs: the audit log is read
 * for usage only when something is cut, and the tokenizer loaded only when the estimate cannot
 * show that the catalog fits.
 */
export async function fitCatalog(
  skills: readonly CatalogSkill[],
  options: CatalogOptions,
  usage: () => CatalogOptions['usage'],
): Promise<CatalogResult> {
  const first = renderCatalog(skills, options);
  const cut = first.counts.full < skills.length;
  if (!cut && !first.wantsExactCount) return first;
  const countTokens = first.wantsExactCount ? await loadTokenCounter() : undefined;
  const used = cut || first.wantsExactCount ? usage() : undefined;
  return renderCatalog(skills, {
    ...options,
    ...(countTokens === undefined ? {} : { countTokens }),
    ...(used === undefined ? {} : { usage: used }),
  });
}

/** Each item made into another as it is taken. */
function* mapped<T, U>(items: Iterable<T>, make: (item: T) => U): Generator<U, void, undefined> {
  for (const item of items) yield make(item);
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...SOURCE_OPTIONS,
    ...JSON_OPTION,
    'audit-log': { type: 'string' },
    format: { type: 'string' },
    budget: { type: 'string' },
    explain: { type: 'boolean' },
    locations: { type: 'boolean' },
    pin: { type: 'string', multiple: true },
  });
  if (args.positionals.length > 0) throw new UsageError('catalog takes no arguments');
  if (
    args.options.json === true &&
    args.options.format !== undefined &&
    args.options.format !== 'json'
  )
    throw new UsageError(`--json contradicts --format ${String(args.options.format)}`);
  const format = args.options.json === true ? 'json' : String(args.options.format ?? 'xml');
  if (!formats.has(format))
    throw new UsageError(`unknown format '${format}' (use xml, markdown or json)`);
  const budget =
    args.options.budget === undefined ? undefined : integerOption(args.options.budget, 'budget', 0);
  const { registry } = openRegistry(args, deps);
  const catalogSkill = (entry: RegistryEntry): CatalogSkill => ({
    name: entry.name,
    description: entry.metadata?.description ?? '',
    location: entry.skillFile,
    trusted: entry.source.trust === 'trusted',
  });
  // Without a budget every skill is shown in full: the catalog is written as it is made, never
  // whole in memory (an explanation needs the whole result), from the entries as they are taken.
  if (budget === undefined && args.options.explain !== true) {
    const shown = {
      format: format as CatalogFormat,
      includeLocation: args.options.locations === true,
    };
    let written = false;
    for (const piece of fullCatalogPieces(mapped(registry.active(), catalogSkill), shown)) {
      await writeWithBackpressure(io.stdout, piece);
      written = true;
    }
    if (!written) {
      io.stderr.write('No usable skills: no catalog (and no activation tool) is offered.\n');
      return 0;
    }
    await writeWithBackpressure(io.stdout, '\n');
    return 0;
  }
  const skills = registry.active().map(catalogSkill);
  const pinned = [
    ...(deps.readConfig(configFile(deps)).pinnedSkills ?? []),
    ...((args.options.pin as readonly string[] | undefined) ?? []),
  ];
  const result = await fitCatalog(
    skills,
    {
      format: format as CatalogFormat,
      ...(budget === undefined ? {} : { budget }),
      ...(pinned.length === 0 ? {} : { pinned }),
      includeLocation: args.options.locations === true,
    },
    () => readSkillUsage(auditLogPath(args, deps)),
  );
  if (result.text === '')
    io.stderr.write('No usable skills: no catalog (and no activation tool) is offered.\n');
  else io.stdout.write(`${result.text}\n`);
  if (args.options.explain === true) {
    if (format === 'json') {
      const { text: _text, ...explanation } = result;
      io.stderr.write(`${JSON.stringify(explanation, null, 2)}\n`);
      return 0;
    }
    io.stderr.write(`${result.explain.join('\n')}\n`);
    for (const decision of result.decisions) {
      if (decision.level !== 'full')
        io.stderr.write(`  ${printable(decision.name)}: ${decision.reason}\n`);
    }
  }
  return 0;
}
