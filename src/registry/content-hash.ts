import type { ContentHasher, SkillFileSystem } from '../deps.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import { baseName } from '../paths.js';
import { type FileIdentity, identityOf, sameIdentity } from './identity.js';

/** The digests of skill files, each remembered for as long as the file's identity holds. */
export class ContentHashes {
  readonly #fs: SkillFileSystem;
  readonly #hasher: ContentHasher;
  readonly #maxBytes: number;
  readonly #known = new Map<string, { identity: FileIdentity; hash: string }>();

  constructor(fs: SkillFileSystem, hasher: ContentHasher, limits?: Partial<ReadLimits>) {
    this.#fs = fs;
    this.#hasher = hasher;
    this.#maxBytes = { ...DEFAULT_READ_LIMITS, ...limits }.maxSkillFileBytes;
  }

  /** The digest of a skill's SKILL.md, or undefined when it cannot be read. */
  of(skill: { readonly directory: string; readonly skillFile: string }): string | undefined {
    const known = this.#known.get(skill.skillFile);
    if (known !== undefined && sameIdentity(known.identity, this.#fs.status(skill.skillFile, true)))
      return known.hash;
    const read = this.#fs.readFileWithin(skill.directory, baseName(skill.skillFile), {
      maxBytes: this.#maxBytes,
    });
    if (!read.ok) return undefined;
    const hash = this.#hasher(read.bytes);
    this.#known.set(skill.skillFile, { identity: identityOf(read.status), hash });
    return hash;
  }
}
