import type { SkillMetadata } from '../format/load.js';

const MAX_INTERNED = 20_000;
const MAX_SIGNATURE = 512;
const noMetadata: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/**
 * Short strings that recur across skills (licences, metadata keys and common values, file
 * names) kept once: a registry of ten thousand skills holds one "Apache-2.0", not ten thousand.
 * Each registry owns one table (two registries never share state); it is bounded, so hostile
 * input cannot grow it without limit.
 */
export class StringTable {
  readonly #strings = new Map<string, string>();
  readonly #maps = new Map<string, Readonly<Record<string, string>>>();

  /** The kept copy of a short string (the string itself the first time, or when full). */
  intern(value: string): string {
    if (value.length > 64) return value;
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    if (this.#strings.size < MAX_INTERNED) this.#strings.set(value, value);
    return value;
  }

  /** Metadata with its recurring strings kept once, and equal metadata maps shared. */
  compactMetadata(metadata: SkillMetadata | undefined): SkillMetadata | undefined {
    if (metadata === undefined) return undefined;
    return this.compactFields(
      metadata.name,
      metadata.description,
      metadata.license,
      metadata.compatibility,
      metadata.allowedTools,
      metadata.metadata,
    );
  }

  /**
   * A metadata map with its strings kept once; equal maps (same keys and values, in order) are
   * one frozen object.
   */
  compactMap(map: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const keys = Object.keys(map);
    if (keys.length === 0) return noMetadata;
    // Skills of one collection often carry the same metadata: equal maps are kept once.
    // Each string with its length before it: no two different maps have one signature.
    let signature = '';
    for (const key of keys) {
      const value = map[key] as string;
      signature += `${key.length}:${key}${value.length}:${value}`;
    }
    const shareable = signature.length <= MAX_SIGNATURE;
    const known = shareable ? this.#maps.get(signature) : undefined;
    if (known !== undefined) return known;
    const compact: Record<string, string> = Object.create(null);
    for (const key of keys) compact[this.intern(key)] = this.intern(map[key] as string);
    const entries = Object.freeze(compact);
    if (shareable && this.#maps.size < MAX_INTERNED) this.#maps.set(signature, entries);
    return entries;
  }

  /** `compactMetadata` of the fields themselves (the index cache decodes them so). */
  compactFields(
    name: string,
    description: string,
    license: string | undefined,
    compatibility: string | undefined,
    allowedTools: string | undefined,
    map: Readonly<Record<string, string>>,
  ): SkillMetadata {
    const entries = this.compactMap(map);
    return {
      name,
      description,
      ...(license === undefined ? {} : { license: this.intern(license) }),
      ...(compatibility === undefined ? {} : { compatibility: this.intern(compatibility) }),
      ...(allowedTools === undefined ? {} : { allowedTools: this.intern(allowedTools) }),
      metadata: entries,
    };
  }
}
