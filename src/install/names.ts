import { identityProblem } from '../format/identity.js';
import { MAX_NAME_LENGTH } from '../format/limits.js';

/**
 * True when `name` can be the folder of an installed skill: one path segment (never `.`, `..`, a
 * slash or a backslash) that can name a skill, at most the specification's length.
 */
export function isValidSkillFolderName(name: string): boolean {
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\\') &&
    [...name].length <= MAX_NAME_LENGTH &&
    identityProblem(name) === undefined
  );
}
