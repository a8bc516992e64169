import type { Diagnostic } from '../diagnostics.js';
import { SkillhostError } from '../errors.js';
import { parentPath } from '../paths.js';
import { quote } from '../quote.js';
import { suggest, withSuggestions } from '../suggest.js';
import { type RegistryEntry, unusableReason } from './entries.js';

/** What lookups need of a registry. */
export interface SkillLookup {
  resolve(nameOrAddress: string): RegistryEntry | undefined;
  copies(name: string): readonly RegistryEntry[];
  readonly entries: readonly RegistryEntry[];
}

/** The shadowing notes say what the status says ("shadowed by"): they are not findings of the skill. */
const STATUS_CODES = new Set(['SKILL_SHADOWED', 'SKILL_DUPLICATE']);

/** A skill's own errors, then its warnings, in file order, without the notes about shadowing. */
export function skillFindings(entry: RegistryEntry): Diagnostic[] {
  const own = entry.diagnostics.filter(
    (diagnostic) => diagnostic.severity !== 'info' && !STATUS_CODES.has(diagnostic.code),
  );
  return [
    ...own.filter((diagnostic) => diagnostic.severity === 'error'),
    ...own.filter((diagnostic) => diagnostic.severity !== 'error'),
  ];
}

function place(diagnostic: Diagnostic): string {
  return diagnostic.line > 0
    ? `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`
    : diagnostic.file;
}

/**
 * SKILL_UNAVAILABLE for a copy that exists but cannot be used: why (errors, with the first of
 * them and where; or a project folder not trusted yet, with what to run), and its diagnostics.
 */
export function unavailableError(entry: RegistryEntry, action = 'used'): SkillhostError {
  const first = skillFindings(entry)[0];
  const reason =
    entry.status === 'untrusted'
      ? `it is in a project folder that is not trusted (${parentPath(parentPath(entry.source.root))}): run 'skillhost trust' there, or pass --trust`
      : entry.status === 'skipped'
        ? `skillhost list shows it as skipped: ${first === undefined ? 'it has errors' : `${first.code} at ${place(first)}: ${first.message}`}`
        : entry.status === 'disabled'
          ? `it is disabled: run 'skillhost enable ${entry.name}' to turn it back on`
          : (unusableReason(entry.status) ?? 'it cannot be used');
  return new SkillhostError(
    'SKILL_UNAVAILABLE',
    `Skill ${quote(entry.name)} (${entry.address}) cannot be ${action}: ${reason}`,
    {
      details: {
        address: entry.address,
        status: entry.status,
        ...(first === undefined
          ? {}
          : {
              diagnostic: {
                code: first.code,
                message: first.message,
                file: first.file,
                line: first.line,
                column: first.column,
              },
            }),
      },
      diagnostics: entry.diagnostics,
    },
  );
}

/** SKILL_NOT_FOUND for a name no copy has, with the closest names among `names`. */
export function notFoundError(name: string, names: Iterable<string>, where = ''): SkillhostError {
  const bare = name.includes('@') ? name.slice(0, name.indexOf('@')) : name;
  const suggestions = bare.length > 200 ? [] : suggest(bare, names);
  return new SkillhostError(
    'SKILL_NOT_FOUND',
    withSuggestions(`No skill named ${quote(name)}${where}`, suggestions),
    { details: { name: name.slice(0, 200), ...(suggestions.length > 0 ? { suggestions } : {}) } },
  );
}

/**
 * The usable copy (active, or shadowed when addressed) of a name or `name@source`, else a coded
 * error: SKILL_UNAVAILABLE when the skill exists but is skipped, untrusted or disabled (as
 * `skillhost list` shows it), SKILL_NOT_FOUND with "did you mean" otherwise.
 */
export function usableEntry(
  registry: SkillLookup,
  nameOrAddress: string,
  action = 'used',
): RegistryEntry {
  const entry = registry.resolve(nameOrAddress);
  if (entry !== undefined && unusableReason(entry.status) === undefined) return entry;
  const unusable =
    entry ?? (nameOrAddress.includes('@') ? undefined : registry.copies(nameOrAddress)[0]);
  if (unusable !== undefined) throw unavailableError(unusable, action);
  // Every name the registry knows, usable or not: a skipped one then says why it is skipped.
  throw notFoundError(
    nameOrAddress,
    registry.entries.map((candidate) => candidate.name),
  );
}
