import type { DirectoryEntry, ReadResult, ReadWithinOptions, SkillFileSystem } from '../deps.js';
import { joinPath, parentPath } from '../paths.js';
import { type FolderListing, listFolder } from './walker.js';

/**
 * A walk that reads the skill files it finds: one read of `SKILL.md` in place of a listing of
 * the folder and then the read. `list` first reads `SKILL.md` with `read` (the options the
 * reader will use); when that works, the folder is a skill directory and the bytes are kept for
 * the reader, which takes them through `fs` (the file system to hand it) instead of reading the
 * file again. Anything else (no such file, a link, not a regular file, too large) is left to an
 * ordinary listing (`skillFile` answers undefined; `list` lists) and read, so every verdict is
 * the one they give. A folder whose file system
 * ignores case (it would open a `skill.md` as `SKILL.md`) is found out once per parent folder,
 * and its skill directories are listed as before.
 */
export function readingWalk(
  base: SkillFileSystem,
  read: ReadWithinOptions,
): {
  readonly fs: SkillFileSystem;
  skillFile(directory: string): FolderListing | undefined;
  list(directory: string, skipNames: ReadonlySet<string>): FolderListing;
  /** The walk's `children` hook: the skill files of the folders it is about to visit, read ahead. */
  children(directory: string, children: readonly DirectoryEntry[]): (() => void) | undefined;
} {
  // Only the last read is kept: it is taken at once (the walker reports a skill directory as
  // soon as it has listed it), and a read's bytes are valid only until the next read.
  let kept: { readonly directory: string; readonly result: ReadResult } | undefined;
  const caseSensitive = new Map<string, boolean>();
  // Each method called on `base`: a file system may be a class instance, whose methods a spread
  // would not copy.
  const fs: SkillFileSystem = {
    listDirectory: (path) => base.listDirectory(path),
    status: (path, follow) => base.status(path, follow),
    realPath: (path) => base.realPath(path),
    ...(base.exists === undefined
      ? {}
      : {
          exists: (path: string) => base.exists?.(path) ?? base.status(path, false) !== undefined,
        }),
    ...(base.statusMany === undefined
      ? {}
      : {
          statusMany: (paths: readonly string[], follow: boolean) =>
            base.statusMany?.(paths, follow) ?? [],
        }),
    readFileWithin: (root, relativePath, options) => {
      const taken = kept;
      kept = undefined;
      if (
        taken !== undefined &&
        taken.directory === root &&
        relativePath === 'SKILL.md' &&
        options.maxBytes === read.maxBytes &&
        options.allowPartial === read.allowPartial
      )
        return taken.result;
      return base.readFileWithin(root, relativePath, options);
    },
  };
  const skillFile = (directory: string): FolderListing | undefined => {
    kept = undefined;
    const parent = parentPath(directory);
    if (caseSensitive.get(parent) !== false) {
      const result = base.readFileWithin(directory, 'SKILL.md', read);
      if (result.ok) {
        let sensitive = caseSensitive.get(parent);
        if (sensitive === undefined) {
          sensitive = base.status(joinPath(directory, 'skill.md'), false) === undefined;
          caseSensitive.set(parent, sensitive);
        }
        if (sensitive) {
          kept = { directory, result };
          return { skillFile: { name: 'SKILL.md', kind: 'file' } };
        }
      }
    }
    return undefined;
  };
  return {
    fs,
    skillFile,
    list: (directory, skipNames) => skillFile(directory) ?? listFolder(base, directory, skipNames),
    // Below a folder whose file system ignores case, the skill directories are listed instead.
    children: (directory, children) =>
      base.readAhead === undefined || caseSensitive.get(directory) === false
        ? undefined
        : base.readAhead(directory, children, 'SKILL.md', read),
  };
}
