import type { Code } from '../codes.js';
import type { Severity } from '../diagnostics.js';

/** A frontmatter value: every scalar is text (the YAML failsafe schema). */
export type FrontmatterValue = string | readonly FrontmatterValue[] | FrontmatterMap;

/** A mapping built on a null-prototype object, so keys such as `__proto__` are plain keys. */
export interface FrontmatterMap {
  readonly [key: string]: FrontmatterValue;
}

/** Where a field's key and value start, as UTF-16 offsets into the frontmatter text. */
export interface FieldLocation {
  readonly keyOffset: number;
  readonly valueOffset: number;
  /** Locations of the entries of a mapping value (one level down, for metadata). */
  readonly children?: ReadonlyMap<string, FieldLocation>;
}

export interface YamlProblem {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  /** UTF-16 offset into the frontmatter text. */
  readonly offset: number;
}

export interface YamlResult {
  /** The top-level mapping, or undefined when the frontmatter is not a usable mapping. */
  readonly data: FrontmatterMap | undefined;
  readonly locations: ReadonlyMap<string, FieldLocation>;
  readonly problems: readonly YamlProblem[];
  /** True when the fast scanner produced the result, false when the YAML library did. */
  readonly fast: boolean;
}

export function isFrontmatterMap(value: FrontmatterValue | undefined): value is FrontmatterMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
