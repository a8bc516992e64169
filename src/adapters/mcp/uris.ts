/** The URI scheme of skill files, as the MCP skills extension spells it. */
export const SKILL_SCHEME = 'skill://';

/** Longer URIs are refused before any work is done on them. */
const MAX_URI_LENGTH = 2048;

export type SkillUri =
  | {
      readonly ok: true;
      readonly name: string;
      /** The file's path inside the skill, `/`-separated; empty for the skill's own folder. */
      readonly path: string;
      /** Whether the URI names a folder (it ends with `/`). */
      readonly directory: boolean;
    }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): SkillUri => ({ ok: false, reason });

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Reads a `skill://NAME/PATH` URI exactly as the client sent it, before any URL normalisation
 * could fold `..` or `%2e%2e` segments away: a URI that names a parent folder, an absolute or
 * empty path, another scheme, a query or a fragment is refused, not repaired. Each segment is
 * percent-decoded once; a decoded segment that holds a separator or is `.`/`..` is refused.
 */
export function parseSkillUri(raw: string): SkillUri {
  if (typeof raw !== 'string') return refuse('the URI is not a string');
  if (raw.length > MAX_URI_LENGTH)
    return refuse(`the URI is longer than ${MAX_URI_LENGTH} characters`);
  if (!raw.startsWith(SKILL_SCHEME)) return refuse(`only ${SKILL_SCHEME} URIs name skill files`);
  const rest = raw.slice(SKILL_SCHEME.length);
  if (/[?#]/.test(rest)) return refuse('a skill URI has no query or fragment');
  if (rest.includes('\\')) return refuse('backslashes are not allowed');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(rest)) return refuse('control characters are not allowed');
  const directory = rest.endsWith('/');
  const segments = (directory ? rest.slice(0, -1) : rest).split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    const value = decodeSegment(segment);
    if (value === undefined) return refuse('a segment is not valid percent-encoding');
    if (value === '') return refuse('empty segments are not allowed');
    if (value === '.' || value === '..') return refuse('. and .. segments are not allowed');
    if (/[/\\]/.test(value)) return refuse('an encoded separator is not allowed');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(value)) return refuse('control characters are not allowed');
    decoded.push(value);
  }
  const [name, ...path] = decoded;
  if (name === undefined) return refuse('the URI names no skill');
  if (path.length === 0 && !directory) return refuse('the URI names no file of the skill');
  return { ok: true, name, path: path.join('/'), directory };
}

/** The URI of a file (or, with a trailing `/` in `path`, a folder) of a skill. */
export function skillUri(name: string, path = ''): string {
  const folder = path.endsWith('/');
  const segments = path === '' ? [] : (folder ? path.slice(0, -1) : path).split('/');
  const encoded = [name, ...segments].map((segment) => encodeURIComponent(segment)).join('/');
  return `${SKILL_SCHEME}${encoded}${path === '' || folder ? '/' : ''}`;
}
