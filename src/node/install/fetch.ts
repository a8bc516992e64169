import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { InstallSource } from '../../core.js';
import { SkillhostError } from '../../errors.js';
import { archiveFormat } from '../../internal.js';
import { extractArchive } from './archive.js';
import { copyFileHashed, downloadFile } from './download.js';
import { checkoutGitCommit, type GitOptions, repositoryName, resolveGitRef } from './git.js';

/** A source brought onto this machine, ready for its skills to be copied out. */
export interface FetchedSource {
  readonly source: InstallSource;
  /** The source's root folder: the checkout, the extracted archive, or the local folder. */
  readonly root: string;
  /** Where to look for skills: the root, or its `subpath`. */
  readonly searchRoot: string;
  /** For git: the commit checked out. */
  readonly commit?: string;
  /** For an archive: `sha256:` and the digest of its bytes. */
  readonly digest?: string;
  /** Removes everything fetched (a local folder is left alone). Safe to call twice. */
  dispose(): void;
}

export interface FetchOptions {
  /** The caller's environment (git is given only its proxy and SSH agent variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where temporary folders are made (default: the system's). */
  readonly tempDir?: string;
  /** Fetch exactly this: the commit (git) or digest (archive) a lockfile records. */
  readonly pinned?: { readonly commit?: string; readonly digest?: string };
  /** The fetch function for archive URLs (default: the global one). */
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
  /** The git program (default: git from the system folders). */
  readonly git?: string;
}

/** An archive's folder name: its file name without the extension. */
function archiveBaseName(location: string): string {
  const name = basename(location.replace(/[?#].*$/, '')).replace(/\.(tar\.gz|tgz|zip)$/i, '');
  const clean = name.replace(/[^A-Za-z0-9._-]/g, '-');
  return clean === '' || /^\.+$/.test(clean) ? 'archive' : clean;
}

/** GitHub's (and most) archives hold one top folder: it is the source's root. */
function singleTopFolder(folder: string): string {
  const names = readdirSync(folder);
  if (names.length !== 1) return folder;
  const only = join(folder, names[0] as string);
  return lstatSync(only).isDirectory() ? only : folder;
}

function locate(root: string, subpath: string | undefined, described: string): string {
  if (subpath === undefined) return root;
  const path = join(root, ...subpath.split('/'));
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    real = '';
  }
  const realRoot = realpathSync(root);
  if (
    real === '' ||
    !(real === realRoot || real.startsWith(`${realRoot}/`)) ||
    !lstatSync(real).isDirectory()
  )
    throw new SkillhostError('SOURCE_SUBPATH_NOT_FOUND', `${described} has no folder ${subpath}`, {
      details: { subpath },
    });
  return real;
}

/**
 * Brings a source onto this machine in a temporary folder: a git repository checked out at the
 * commit its ref resolves to (or the pinned one), an archive downloaded or copied, hashed and
 * extracted behind the archive checks, or a local folder as it is. On any failure nothing fetched
 * is left behind.
 */
export async function fetchSkillSource(
  source: InstallSource,
  options: FetchOptions,
): Promise<FetchedSource> {
  if (source.type === 'folder') {
    const status = (() => {
      try {
        return lstatSync(source.path);
      } catch {
        return undefined;
      }
    })();
    if (status === undefined || !status.isDirectory())
      throw new SkillhostError('PATH_NOT_FOUND', `The folder ${source.path} does not exist`, {
        details: { path: source.path },
      });
    return { source, root: source.path, searchRoot: source.path, dispose: () => undefined };
  }
  const temp = mkdtempSync(join(options.tempDir ?? tmpdir(), 'skillhost-fetch-'));
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    rmSync(temp, { recursive: true, force: true });
  };
  try {
    if (source.type === 'git') {
      const git: GitOptions = {
        env: options.env,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.git === undefined ? {} : { git: options.git }),
      };
      const commit = options.pinned?.commit ?? (await resolveGitRef(source, git));
      const root = join(temp, repositoryName(source.url));
      await checkoutGitCommit(source, commit, root, git);
      return {
        source,
        root,
        searchRoot: locate(root, source.subpath, source.url),
        commit,
        dispose,
      };
    }
    const format = archiveFormat(source.location);
    if (format === undefined)
      throw new SkillhostError(
        'SOURCE_INVALID',
        `${source.location} is not a .tar.gz, .tgz or .zip archive`,
      );
    const file = join(temp, format === 'zip' ? 'archive.zip' : 'archive.tar.gz');
    const remote = /^https?:\/\//i.test(source.location);
    const taken = remote
      ? await downloadFile(source.location, file, {
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        })
      : copyFileHashed(source.location, file);
    if (options.pinned?.digest !== undefined && options.pinned.digest !== taken.digest)
      throw new SkillhostError(
        'LOCKFILE_MISMATCH',
        `${source.location} is no longer the archive the lockfile records (${options.pinned.digest}, now ${taken.digest})`,
        {
          details: {
            location: source.location,
            recorded: options.pinned.digest,
            found: taken.digest,
          },
        },
      );
    const extracted = join(temp, 'x', archiveBaseName(source.location));
    mkdirSync(extracted, { recursive: true, mode: 0o700 });
    await extractArchive(file, format, extracted, { name: source.location });
    rmSync(file, { force: true });
    const root = singleTopFolder(extracted);
    return {
      source,
      root,
      searchRoot: locate(root, source.subpath, source.location),
      digest: taken.digest,
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}
