import { countInvisible, isAsciiName, pythonStrip } from './unicode.js';

/**
 * A skill is known by its directory's name, NFKC-normalised as the reference validator compares
 * it. The `name` a SKILL.md claims is only checked against it: a file cannot claim to be another
 * skill, since where a skill lives is decided by whoever placed the folder, not by its text.
 *
 * @example skillIdentity('pdf-tools') // 'pdf-tools'
 */
export function skillIdentity(directoryName: string): string {
  return isAsciiName(directoryName) ? directoryName : directoryName.normalize('NFKC');
}

/**
 * Why a directory's name cannot be a skill's name, or undefined when it can. A name is shown to
 * people and models and used to address the skill: it may not be empty, hold control or invisible
 * characters (it would look like another name), start or end with white space, or hold `@` (the
 * separator of `name@source` addresses).
 */
export function identityProblem(directoryName: string): string | undefined {
  if (isAsciiName(directoryName)) return undefined;
  const name = skillIdentity(directoryName);
  if (name === '') return 'it is empty';
  if (/\p{Cc}/u.test(name)) return 'it holds control characters';
  if (countInvisible(name) > 0) return 'it holds invisible characters';
  if (pythonStrip(name) !== name) return 'it starts or ends with white space';
  if (name.includes('@')) return "it holds '@', which separates a name from its source";
  return undefined;
}
