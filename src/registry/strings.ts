import type { MetadataKeeping } from '../format/load.js';
import { detachString } from '../format/unicode.js';
import { fnv1aOf } from './hash.js';

const MAX_INTERNED = 20_000;
/**
 * The longest string kept once. A compatibility note (up to 500 characters) or a list of tools
 * recurs across a collection as a licence does; a string kept here is the one the records hold,
 * so a long one costs the table a slot, never a copy.
 */
const MAX_INTERNED_LENGTH = 1024;
/** The longest map shared (its keys' and values' lengths summed). */
const MAX_SHARED_MAP = 512;

type MetadataMap = Readonly<Record<string, string>>;

/**
 * What equal metadata maps are found by: a hash of their keys and values in order (each key
 * ended by its length, so that `{ ab: 'c' }` and `{ a: 'bc' }` differ), compared after.
 */
export function mapHash(keys: readonly string[], map: MetadataMap): number {
  let hash: number | undefined;
  for (const key of keys) {
    hash = fnv1aOf(key, hash);
    hash = fnv1aOf(map[key] as string, Math.imul(hash ^ key.length, 0x01000193));
  }
  return hash ?? 0;
}

/** Whether `candidate` has exactly `keys`, in that order, with `map`'s values. */
function sameMap(candidate: MetadataMap, keys: readonly string[], map: MetadataMap): boolean {
  const own = Object.keys(candidate);
  if (own.length !== keys.length) return false;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (own[index] !== key || candidate[key] !== map[key]) return false;
  }
  return true;
}

const noMetadata: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/**
 * Strings that recur across skills (licences, compatibility notes, tool lists, metadata keys and
 * common values, file names) kept once: a registry of ten thousand skills holds one
 * "Apache-2.0", not ten thousand.
 * Each registry owns one table (two registries never share state); it is bounded, so hostile
 * input cannot grow it without limit.
 */
export class StringTable {
  readonly #strings = new Map<string, string>();
  readonly #maps = new Map<number, MetadataMap | MetadataMap[]>();
  #mapCount = 0;

  /** The kept copy of a short string (the string itself the first time, or when full). */
  intern(value: string): string {
    if (value.length > MAX_INTERNED_LENGTH) return value;
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    if (this.#strings.size < MAX_INTERNED) this.#strings.set(value, value);
    return value;
  }

  /**
   * A recurring value as the table keeps it: the kept copy of an equal one, else a copy detached
   * from the text it was cut from, kept from now on. No copy is made of a value already known.
   */
  share(value: string): string {
    if (value.length > MAX_INTERNED_LENGTH) return detachString(value);
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    const copy = detachString(value);
    if (this.#strings.size < MAX_INTERNED) this.#strings.set(copy, copy);
    return copy;
  }

  /** How `toSkillMetadata` keeps what it reads in this table: `share`, then `shareMap`. */
  readonly keeping: MetadataKeeping = {
    share: (value) => this.share(value),
    shareMap: (map) => this.shareMap(map),
  };

  /**
   * A map of kept strings (on a null prototype) shared: an equal map kept before, else this one,
   * frozen and kept.
   */
  shareMap(map: Record<string, string>): Readonly<Record<string, string>> {
    const keys = Object.keys(map);
    if (keys.length === 0) return noMetadata;
    // Skills of one collection often carry the same metadata: equal maps are kept once, found by
    // a hash of their keys and values and then compared. Nothing but the maps is kept for it, so
    // a map no other skill shares costs one table slot.
    let length = 0;
    for (const key of keys) length += key.length + (map[key] as string).length;
    const shareable = length <= MAX_SHARED_MAP;
    const hash = shareable ? mapHash(keys, map) : 0;
    const known = shareable ? this.#maps.get(hash) : undefined;
    if (known !== undefined) {
      for (const candidate of Array.isArray(known) ? known : [known])
        if (sameMap(candidate, keys, map)) return candidate;
    }
    const entries = Object.freeze(map);
    if (shareable && this.#mapCount < MAX_INTERNED) {
      this.#mapCount += 1;
      if (known === undefined) this.#maps.set(hash, entries);
      else if (Array.isArray(known)) known.push(entries);
      else this.#maps.set(hash, [known, entries]);
    }
    return entries;
  }
}
