import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';

/**
 * Where skills are installed from, as the lockfile records it. `folder`: a local folder (its
 * absolute path, or a path relative to the lockfile's folder); `git`: a repository URL with an
 * optional ref (branch, tag or commit) and the folder of it to search; `archive`: a `.tar.gz`,
 * `.tgz` or `.zip` file (a path) or URL.
 */
export type InstallSource =
  | { readonly type: 'folder'; readonly path: string }
  | {
      readonly type: 'git';
      readonly url: string;
      readonly ref?: string;
      readonly subpath?: string;
      /** Fetch the repository's submodules too (never by default). */
      readonly submodules?: boolean;
    }
  | { readonly type: 'archive'; readonly location: string; readonly subpath?: string };

export type ArchiveFormat = 'tar.gz' | 'zip';

/** What the parser may ask of the outside world: is this path a folder, a file, or nothing. */
export interface SourceLookup {
  readonly kindOf: (path: string) => 'directory' | 'file' | undefined;
  /** Makes a local path absolute (against the working directory, `~` against the home). */
  readonly resolve: (path: string) => string;
}

const CONTROL = /\p{Cc}/u;
const SHORTHAND = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
const GIT_SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'file:']);
const FULL_COMMIT = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

function invalid(text: string, why: string): SkillhostError {
  return new SkillhostError('SOURCE_INVALID', `The source ${quote(text)} ${why}`, {
    details: { source: text },
  });
}

/** The archive format a name ends with (before any `?query`), if any. */
export function archiveFormat(name: string): ArchiveFormat | undefined {
  const path = name.split(/[?#]/, 1)[0]?.toLowerCase() ?? '';
  if (path.endsWith('.tar.gz') || path.endsWith('.tgz')) return 'tar.gz';
  if (path.endsWith('.zip')) return 'zip';
  return undefined;
}

/** True when a commit-ish is a full commit id (the source is pinned: nothing to update). */
export function isFullCommit(ref: string): boolean {
  return FULL_COMMIT.test(ref);
}

/**
 * Checks a ref as git would take it, and so that it can never be read as an option: letters,
 * digits and `._/-`, not starting with `-` or `/`, no `..`, `//`, `@{`, no `.lock` ending.
 */
export function checkRef(ref: string, source: string): string {
  if (
    ref === '' ||
    ref.length > 255 ||
    !/^[A-Za-z0-9._/-]+$/.test(ref) ||
    ref.startsWith('-') ||
    ref.startsWith('/') ||
    ref.endsWith('/') ||
    ref.endsWith('.') ||
    ref.endsWith('.lock') ||
    ref.includes('..') ||
    ref.includes('//')
  ) {
    throw invalid(source, `names the ref ${quote(ref)}, which is not a branch, tag or commit name`);
  }
  return ref;
}

/** Normalises a subpath: relative, POSIX, no `.` or `..` segment, no backslash or control character. */
export function checkSubpath(subpath: string, source: string): string | undefined {
  const trimmed = subpath.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return undefined;
  const segments = trimmed.split('/');
  if (
    trimmed.startsWith('/') ||
    trimmed.includes('\\') ||
    CONTROL.test(trimmed) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw invalid(source, `has the subpath ${quote(subpath)}, which is not a plain relative path`);
  }
  return trimmed;
}

/** Splits `#ref`, `#ref:subpath` or `#:subpath` off a URL. */
function splitFragment(text: string): { base: string; ref?: string; subpath?: string } {
  const hash = text.lastIndexOf('#');
  if (hash === -1) return { base: text };
  const fragment = text.slice(hash + 1);
  const colon = fragment.indexOf(':');
  const ref = colon === -1 ? fragment : fragment.slice(0, colon);
  const subpath = colon === -1 ? undefined : fragment.slice(colon + 1);
  return {
    base: text.slice(0, hash),
    ...(ref === '' ? {} : { ref }),
    ...(subpath === undefined ? {} : { subpath }),
  };
}

function gitSource(
  url: string,
  ref: string | undefined,
  subpath: string | undefined,
  text: string,
): InstallSource {
  const checkedSubpath = subpath === undefined ? undefined : checkSubpath(subpath, text);
  return {
    type: 'git',
    url,
    ...(ref === undefined ? {} : { ref: checkRef(ref, text) }),
    ...(checkedSubpath === undefined ? {} : { subpath: checkedSubpath }),
  };
}

function archiveSource(
  location: string,
  ref: string | undefined,
  subpath: string | undefined,
  text: string,
): InstallSource {
  if (ref !== undefined)
    throw invalid(text, 'names a ref, but an archive has none (use #:subpath)');
  const checkedSubpath = subpath === undefined ? undefined : checkSubpath(subpath, text);
  return {
    type: 'archive',
    location,
    ...(checkedSubpath === undefined ? {} : { subpath: checkedSubpath }),
  };
}

/** `https://github.com/OWNER/REPO/tree/REF/PATH`, as pasted from a browser. */
function githubTree(url: URL): { url: string; ref: string; subpath?: string } | undefined {
  if (url.hostname !== 'github.com') return undefined;
  const parts = url.pathname.split('/').filter((part) => part !== '');
  if (parts.length < 4 || parts[2] !== 'tree') return undefined;
  const rest = parts.slice(4).join('/');
  return {
    url: `https://github.com/${parts[0]}/${parts[1]}.git`,
    ref: parts[3] as string,
    ...(rest === '' ? {} : { subpath: decodeURIComponent(rest) }),
  };
}

/**
 * Reads a source as a user types it: a local folder or archive (when it exists), a git URL
 * (`https://`, `ssh://`, `git://`, `file://`, `git+…`, `user@host:path`), `OWNER/REPO` for GitHub,
 * or a `.tar.gz`, `.tgz` or `.zip` URL. Git sources take `#REF`, `#REF:SUBPATH` or `#:SUBPATH`
 * (and `OWNER/REPO:SUBPATH`); archives take `#:SUBPATH`. Nothing that could be read as a git
 * option, or a transport that runs programs (`ext::`), is accepted.
 *
 * @example parseInstallSource('acme/skills#v1.2:skills/pdf', lookup) // git, ref v1.2, subpath skills/pdf
 */
export function parseInstallSource(text: string, lookup: SourceLookup): InstallSource {
  if (text.trim() === '') throw invalid(text, 'is empty');
  if (text.startsWith('-')) throw invalid(text, 'starts with "-"');
  if (CONTROL.test(text)) throw invalid(text, 'holds a control character');
  if (text.includes('::'))
    throw invalid(text, 'uses a git transport helper ("::"), which runs programs');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    const { base, ref, subpath } = splitFragment(text);
    const plain = scheme.startsWith('git+') ? base.slice(4) : base;
    let url: URL;
    try {
      url = new URL(plain);
    } catch {
      throw invalid(text, 'is not a valid URL');
    }
    if (!GIT_SCHEMES.has(url.protocol))
      throw invalid(text, `uses the scheme ${quote(url.protocol)}, which is not supported`);
    if (url.username !== '' || url.password !== '') {
      if (url.password !== '' || url.protocol === 'https:' || url.protocol === 'http:')
        throw invalid(
          text,
          'holds credentials; let git find them (an SSH agent, or a credential helper you run yourself)',
        );
    }
    if (!scheme.startsWith('git+') && archiveFormat(url.pathname) !== undefined) {
      if (url.protocol === 'file:')
        return archiveSource(decodeURIComponent(url.pathname), ref, subpath, text);
      if (url.protocol === 'https:' || url.protocol === 'http:')
        return archiveSource(plain, ref, subpath, text);
    }
    const tree = ref === undefined && subpath === undefined ? githubTree(url) : undefined;
    if (tree !== undefined) return gitSource(tree.url, tree.ref, tree.subpath, text);
    return gitSource(plain, ref, subpath, text);
  }
  if (SCP_LIKE.test(text)) {
    const { base, ref, subpath } = splitFragment(text);
    return gitSource(base, ref, subpath, text);
  }
  const whole = lookup.kindOf(lookup.resolve(text));
  if (whole === 'directory') return { type: 'folder', path: lookup.resolve(text) };
  if (whole === 'file') {
    if (archiveFormat(text) === undefined)
      throw invalid(text, 'is a file, but not a .tar.gz, .tgz or .zip archive');
    return archiveSource(lookup.resolve(text), undefined, undefined, text);
  }
  const { base, ref, subpath: fragmentSubpath } = splitFragment(text);
  if (
    base !== text &&
    archiveFormat(base) !== undefined &&
    lookup.kindOf(lookup.resolve(base)) === 'file'
  ) {
    return archiveSource(lookup.resolve(base), ref, fragmentSubpath, text);
  }
  const colon = base.indexOf(':');
  const repo = colon === -1 ? base : base.slice(0, colon);
  const shorthand = SHORTHAND.exec(repo);
  const local = /^(\.{1,2}\/|\/|~)/.test(text);
  if (shorthand !== null && !local) {
    if (colon !== -1 && fragmentSubpath !== undefined) throw invalid(text, 'names two subpaths');
    const name = (shorthand[2] as string).replace(/\.git$/, '');
    return gitSource(
      `https://github.com/${shorthand[1]}/${name}.git`,
      ref,
      colon === -1 ? fragmentSubpath : base.slice(colon + 1),
      text,
    );
  }
  throw new SkillhostError(
    local ? 'PATH_NOT_FOUND' : 'SOURCE_INVALID',
    local
      ? `The source ${quote(text)} does not exist`
      : `The source ${quote(text)} is neither an existing folder or archive, a git URL, nor OWNER/REPO`,
    { details: { source: text } },
  );
}

/** The source as one line a user can read (and type again). */
export function describeSource(source: InstallSource): string {
  if (source.type === 'folder') return source.path;
  const location = source.type === 'git' ? source.url : source.location;
  const ref = source.type === 'git' ? (source.ref ?? '') : '';
  return ref === '' && source.subpath === undefined
    ? location
    : `${location}#${ref}${source.subpath === undefined ? '' : `:${source.subpath}`}`;
}

/**
 * True when the source is outside the user's control: a git repository or an archive. A skill
 * installed from one is untrusted until the user trusts it; a local folder is the user's own.
 */
export function isExternalSource(source: InstallSource): boolean {
  return source.type !== 'folder';
}
