import { type RouteCandidate, SkillRouter } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { JSON_OPTION, openRegistry, SOURCE_OPTIONS } from '../registry-options.js';

function number(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new UsageError(`--${name} needs a non-negative number`);
  return parsed;
}

const VERDICTS: Record<RouteCandidate['verdict'], string> = {
  mentioned: 'selected: named in the task',
  selected: 'selected',
  'below-threshold': 'not selected: under the --threshold score',
  'below-best': 'not selected: under 70% of the best score',
  'low-coverage':
    'not selected: matches too little of the task, and does not stand out from the next skill',
  'over-limit': 'not selected: --limit skills were selected before it',
  'after-shortfall': 'not selected: a skill ranked above it fell short',
  'not-mentioned': 'not selected: the task names other skills',
};

/** One candidate, term by term and field by field (`route --explain`). */
function explainCandidate(candidate: RouteCandidate): string[] {
  const lines = [
    `  ${printable(candidate.name)}${candidate.trusted ? '' : ' [untrusted]'}: score ${candidate.score.toFixed(2)}, covers ${Math.round(candidate.coverage * 100)}% of the task; ${VERDICTS[candidate.verdict]}`,
  ];
  const matches = Object.entries(candidate.matches).sort((a, b) => b[1].score - a[1].score);
  for (const [term, match] of matches) {
    const fields = Object.entries(match.fields)
      .map(([field, weight]) => `${field} ${weight}`)
      .join(', ');
    lines.push(
      `    ${printable(term).padEnd(24)} ${match.score.toFixed(2).padStart(6)}  rarity ${match.idf.toFixed(2)}; in ${fields}${match.aliasOf === undefined ? '' : `; stands for '${printable(match.aliasOf)}'`}`,
    );
  }
  return lines;
}

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    ...SOURCE_OPTIONS,
    ...JSON_OPTION,
    threshold: { type: 'string' },
    limit: { type: 'string' },
    explain: { type: 'boolean' },
  });
  if (args.positionals.length !== 1)
    throw new UsageError('route needs exactly one TASK (quote it)');
  const { registry } = openRegistry(args, deps);
  const router = new SkillRouter(
    registry.active().map((entry) => ({
      name: entry.name,
      description: entry.metadata?.description ?? '',
      trusted: entry.source.trust === 'trusted',
    })),
  );
  const threshold = number(args.options.threshold, 'threshold');
  const limit = number(args.options.limit, 'limit');
  const result = router.route(args.positionals[0] as string, {
    ...(threshold === undefined ? {} : { threshold }),
    ...(limit === undefined ? {} : { limit }),
  });
  if (args.options.json === true) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const lines: string[] = [];
  if (args.options.explain === true) {
    lines.push(
      `Task terms (word stems): ${result.query.terms.map((term) => printable(term)).join(', ') || '(none)'}`,
    );
    if (result.query.phrases.length > 0)
      lines.push(`Phrases: ${result.query.phrases.map((phrase) => printable(phrase)).join(', ')}`);
    if (result.query.dropped.length > 0)
      lines.push(
        `Left out (stop words): ${result.query.dropped.map((word) => printable(word)).join(', ')}`,
      );
  }
  if (result.mentioned.length > 0)
    lines.push(
      `Mentioned explicitly: ${result.mentioned.map((name) => printable(name)).join(', ')}`,
    );
  if (result.unknownMentions.length > 0)
    lines.push(
      `Mentioned but not found: ${result.unknownMentions.map((name) => printable(name)).join(', ')}`,
    );
  if (result.ranked.length === 0) lines.push('No skill matches the task.');
  for (const candidate of result.ranked) {
    if (args.options.explain === true) {
      lines.push(...explainCandidate(candidate));
      continue;
    }
    const terms = Object.entries(candidate.terms)
      .sort((a, b) => b[1] - a[1])
      .map(([term, score]) => `${printable(term)} ${score.toFixed(2)}`)
      .join(', ');
    const mark = result.selected.includes(candidate.name) ? '*' : ' ';
    lines.push(
      `${mark} ${candidate.score.toFixed(2).padStart(6)}  ${printable(candidate.name)}${candidate.trusted ? '' : ' [untrusted]'}  (${terms})`,
    );
  }
  lines.push(
    result.selected.length > 0
      ? `Selected: ${result.selected.map((name) => printable(name)).join(', ')}`
      : 'Selected: none',
  );
  if (result.ranked.some((candidate) => !candidate.trusted))
    lines.push(
      'Untrusted skills rank after every trusted match; activating one the router or the model chose asks you first.',
    );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
