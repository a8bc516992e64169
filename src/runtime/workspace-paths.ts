import { SkillhostError } from '../errors.js';

/** Longest path a host tool takes, and longest segment. */
export const MAX_WORKSPACE_PATH = 4096;
const MAX_SEGMENT = 255;

function invalid(given: string, why: string): never {
  throw new SkillhostError(
    'WORKSPACE_PATH_INVALID',
    `${JSON.stringify(given.slice(0, 300))}: ${why}`,
  );
}

/**
 * A path a model gave a host tool, as a plain POSIX path relative to the workspace ('' for the
 * workspace itself). Relative paths and absolute paths inside the workspace (by its real path or
 * the path it was granted by) are taken; `..` segments, paths outside, `~` and control characters
 * are refused with WORKSPACE_PATH_INVALID. Symbolic links are the file system's to check (open,
 * then verify).
 *
 * @example workspacePath('/work/repo/src/a.ts', ['/work/repo']) // 'src/a.ts'
 */
export function workspacePath(given: string, roots: readonly string[]): string {
  if (given.length > MAX_WORKSPACE_PATH)
    invalid(given, `the path is longer than ${MAX_WORKSPACE_PATH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(given)) invalid(given, 'the path holds control characters');
  if (given.startsWith('~'))
    invalid(given, 'home-relative paths are not taken; give a path inside the workspace');
  let rest = given;
  if (given.startsWith('/')) {
    const root = roots.find(
      (candidate) => given === candidate || given.startsWith(`${candidate.replace(/\/+$/, '')}/`),
    );
    if (root === undefined)
      invalid(
        given,
        `the path is outside the workspace (${roots[0] ?? ''}); give it relative to the workspace`,
      );
    rest = given.slice(root.replace(/\/+$/, '').length);
  }
  const kept: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..')
      invalid(given, '.. segments are not taken; give the path from the workspace down');
    if (segment.length > MAX_SEGMENT) invalid(given, 'a path segment is too long');
    kept.push(segment);
  }
  return kept.join('/');
}
