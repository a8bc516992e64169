import type { ParsedSkill } from './parse.js';
import { detachString, pythonStrip } from './unicode.js';
import { isFrontmatterMap } from './yaml-types.js';

/**
 * A skill's properties in exactly the shape of the reference validator's `read-properties`
 * output: name and description trimmed; license, compatibility and allowed-tools only when
 * present; metadata only when it has entries.
 */
export interface SkillProperties {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  readonly 'allowed-tools'?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

/**
 * Text entries of the metadata mapping (non-text values are left out), on a null prototype;
 * keys and values as `keepKey` and `keepValue` keep them (by default, detached copies).
 */
export function metadataStrings(
  parsed: ParsedSkill,
  keepKey: (key: string) => string = detachString,
  keepValue: (value: string) => string = detachString,
): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  const metadata = parsed.frontmatter?.metadata;
  if (!isFrontmatterMap(metadata)) return result;
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    if (typeof value === 'string') result[keepKey(key)] = keepValue(value);
  }
  return result;
}

/** allowed-tools as one space-separated string; a list of strings is joined (lenient form). */
export function allowedToolsString(parsed: ParsedSkill): string | undefined {
  const value = parsed.frontmatter?.['allowed-tools'];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return (value as string[]).join(' ');
  }
  return undefined;
}

/**
 * Name and description, trimmed, as `skillProperties` gives them (undefined in the same cases):
 * all that a catalog shows, without the copies of the other fields.
 */
export function catalogProperties(
  parsed: ParsedSkill,
): { name: string; description: string } | undefined {
  const frontmatter = parsed.frontmatter;
  if (frontmatter === undefined) return undefined;
  const name = frontmatter.name;
  const description = frontmatter.description;
  if (typeof name !== 'string' || typeof description !== 'string') return undefined;
  const trimmedName = pythonStrip(name);
  const trimmedDescription = pythonStrip(description);
  if (trimmedName === '' || trimmedDescription === '') return undefined;
  return { name: detachString(trimmedName), description: detachString(trimmedDescription) };
}

/**
 * The reference-shaped properties, or undefined when name or description is missing, empty or
 * not text (the cases where the reference's read-properties fails).
 */
export function skillProperties(parsed: ParsedSkill): SkillProperties | undefined {
  const shown = catalogProperties(parsed);
  if (shown === undefined) return undefined;
  const frontmatter = parsed.frontmatter ?? {};
  const properties: {
    name: string;
    description: string;
    license?: string;
    compatibility?: string;
    'allowed-tools'?: string;
    metadata?: Record<string, string>;
  } = shown;
  if (typeof frontmatter.license === 'string')
    properties.license = detachString(frontmatter.license);
  if (typeof frontmatter.compatibility === 'string') {
    properties.compatibility = detachString(frontmatter.compatibility);
  }
  const tools = allowedToolsString(parsed);
  if (tools !== undefined) properties['allowed-tools'] = detachString(tools);
  const metadata = frontmatter.metadata;
  if (isFrontmatterMap(metadata)) {
    // Built by assignment, one key at a time: a key `__proto__` alone needs defining, since
    // assigning it would set the prototype.
    let plain: Record<string, string> | undefined;
    for (const key of Object.keys(metadata)) {
      const value = metadata[key];
      if (typeof value !== 'string') continue;
      plain ??= {};
      const detached = detachString(key);
      if (detached === '__proto__') {
        Object.defineProperty(plain, detached, {
          value: detachString(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else plain[detached] = detachString(value);
    }
    if (plain !== undefined) properties.metadata = plain;
  }
  return properties;
}
