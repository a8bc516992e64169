import { type Diagnostic, hasErrors } from '../diagnostics.js';
import { SkillhostError } from '../errors.js';
import { cleanText } from './characters.js';
import { type ParsedSkill, type ParseOptions, parseSkill, type SkillLocation } from './parse.js';
import { allowedToolsString, metadataStrings } from './properties.js';
import { detachString, isAsciiName, pythonStrip } from './unicode.js';
import { type ValidateOptions, validateSkill } from './validate.js';

/** Two granularities: frontmatter only (discovery) or frontmatter and body (activation). */
export type LoadLevel = 'metadata' | 'full';

/** What a runtime knows about a skill after lenient loading, normalised. */
export interface SkillMetadata {
  /** The name, trimmed and NFKC-normalised. */
  readonly name: string;
  /** The description, trimmed. */
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  /** allowed-tools as one space-separated string (a list is joined when loading leniently). */
  readonly allowedTools?: string;
  /** Text entries of metadata; non-text values are dropped with a warning. */
  readonly metadata: Readonly<Record<string, string>>;
}

export interface LoadedSkill {
  readonly file: string;
  readonly metadata: SkillMetadata;
  /** The Markdown body, trimmed; present when loaded at the `full` level. */
  readonly body?: string;
  readonly diagnostics: readonly Diagnostic[];
}

export interface LoadOptions extends ParseOptions, ValidateOptions {
  readonly level?: LoadLevel;
}

/**
 * The body as loading gives it to a model: control and hidden characters removed (validation
 * reports them with their positions), then trimmed.
 */
export function loadedBody(parsed: ParsedSkill): string {
  return cleanText(parsed.body ?? '').text.trim();
}

/**
 * How the values of metadata are kept. A registry keeps recurring values (a licence, a tool
 * list, metadata keys and values) once, and equal metadata maps once; by default each value is
 * a copy of its own, detached from the text it was read from, and the map is frozen.
 */
export interface MetadataKeeping {
  /** The kept form of a value that may recur across skills (name and description never do). */
  readonly share?: (value: string) => string;
  /** The kept form of a metadata map built of shared values (a null-prototype object). */
  readonly shareMap?: (map: Record<string, string>) => Readonly<Record<string, string>>;
}

/** Builds the normalised metadata of a parsed skill, or undefined when name or description is unusable. */
export function toSkillMetadata(
  parsed: ParsedSkill,
  keeping: MetadataKeeping = {},
): SkillMetadata | undefined {
  const frontmatter = parsed.frontmatter;
  if (frontmatter === undefined) return undefined;
  const { name, description, license, compatibility } = frontmatter;
  if (typeof name !== 'string' || typeof description !== 'string') return undefined;
  const strippedName = pythonStrip(name);
  // ASCII text is its own NFKC form.
  const normalisedName = isAsciiName(strippedName) ? strippedName : strippedName.normalize('NFKC');
  // What a runtime shows of a skill (catalogs, search results, MCP clients) carries no control
  // or hidden characters; strict validation still reports them as written.
  const trimmedDescription = pythonStrip(cleanText(description).text);
  if (normalisedName === '' || trimmedDescription === '') return undefined;
  const share = keeping.share ?? detachString;
  const allowedTools = allowedToolsString(parsed);
  const metadata = metadataStrings(parsed, share, (value) => share(cleanText(value).text));
  return {
    name: detachString(normalisedName),
    description: detachString(trimmedDescription),
    ...(typeof license === 'string' ? { license: share(cleanText(license).text) } : {}),
    ...(typeof compatibility === 'string'
      ? { compatibility: share(cleanText(compatibility).text) }
      : {}),
    ...(allowedTools === undefined ? {} : { allowedTools: share(allowedTools) }),
    metadata: keeping.shareMap === undefined ? Object.freeze(metadata) : keeping.shareMap(metadata),
  };
}

/**
 * Parses and validates SKILL.md text and returns the skill, or throws a SkillhostError with code
 * SKILL_INVALID that carries every diagnostic. Lenient by default, as runtime loading should be.
 */
export function loadSkill(
  text: string,
  location: SkillLocation,
  options: LoadOptions = {},
): LoadedSkill {
  const parsed = parseSkill(text, location, options);
  const diagnostics = validateSkill(parsed, { ...options, mode: options.mode ?? 'lenient' });
  const metadata = toSkillMetadata(parsed);
  if (hasErrors(diagnostics) || metadata === undefined) {
    const first = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
    const where =
      first === undefined ? location.file : `${first.file}:${first.line}:${first.column}`;
    throw new SkillhostError(
      'SKILL_INVALID',
      `Skill at ${location.file} cannot be loaded: ${first?.message ?? 'name or description is unusable'} (${where})`,
      { diagnostics, details: { file: location.file } },
    );
  }
  const level = options.level ?? 'full';
  return level === 'full'
    ? { file: location.file, metadata, body: loadedBody(parsed), diagnostics }
    : { file: location.file, metadata, diagnostics };
}
