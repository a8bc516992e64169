import { SkillhostError } from '../errors.js';

/**
 * Matching for the host tools that find and search files: globs over workspace paths and lines
 * matched by text or a regular expression. Pure: the walking and reading are the file system's.
 */

function invalidInput(message: string): never {
  throw new SkillhostError('TOOL_INPUT_INVALID', message);
}

/**
 * A glob as a regular expression over POSIX paths: `**` for any number of folders (a `**`
 * segment may match none), `*` and `?` within one name, `[abc]` and `[!abc]`, `{a,b}`. A pattern
 * is matched against the whole path (relative to where the search starts): `*.ts` matches only
 * at that level; `**` then a slash then `*.ts` matches at any depth.
 *
 * @example compileGlob('src/**' + '/*.{ts,tsx}').test('src/a/b.ts') // true
 */
export function compileGlob(pattern: string): RegExp {
  let source = '';
  let braces = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    if (character === '*' && pattern[index + 1] === '*') {
      const atStart = index === 0 || pattern[index - 1] === '/';
      const slashAfter = pattern[index + 2] === '/';
      index += 1;
      if (atStart && slashAfter) {
        source += '(?:[^/]*/)*';
        index += 1;
      } else source += '.*';
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close === -1) source += '\\[';
      else {
        let inside = pattern.slice(index + 1, close);
        if (inside.startsWith('!')) inside = `^${inside.slice(1)}`;
        source += `[${inside.replace(/\\/g, '\\\\').replace(/\//g, '')}]`;
        index = close;
      }
    } else if (character === '{') {
      braces += 1;
      source += '(?:';
    } else if (character === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (character === ',' && braces > 0) source += '|';
    else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  if (braces > 0) invalidInput(`The glob ${JSON.stringify(pattern)} has an unclosed {`);
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    return invalidInput(`The glob ${JSON.stringify(pattern)} cannot be read`);
  }
}

/**
 * A quantified group holding a quantifier (`(a+)+`, `(x*y)*`, `(\w+\s?)*`): the shape that makes
 * a backtracking engine take exponential time on a line that nearly matches. Refused (a heuristic:
 * JavaScript's engine cannot be bounded in time).
 */
const NESTED_QUANTIFIER =
  /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

/** Longest pattern `workspace_grep` takes. */
export const MAX_GREP_PATTERN = 500;

/**
 * A line test for `workspace_grep`: the text itself (default), or a regular expression
 * (JavaScript syntax, Unicode mode); `ignoreCase` either way. A pattern that cannot be read, or
 * whose nested quantifiers could run for ever, is TOOL_INPUT_INVALID.
 */
export function lineMatcher(
  pattern: string,
  options: { readonly regex: boolean; readonly ignoreCase: boolean },
): (line: string) => boolean {
  if (pattern === '') invalidInput('workspace_grep: "pattern" is empty');
  if (!options.regex) {
    if (!options.ignoreCase) return (line) => line.includes(pattern);
    const lower = pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(lower);
  }
  if (NESTED_QUANTIFIER.test(pattern))
    invalidInput(
      `workspace_grep: the pattern ${JSON.stringify(pattern.slice(0, 100))} nests quantifiers (like (a+)+), which can take exponential time; write it without the nesting`,
    );
  let expression: RegExp;
  try {
    expression = new RegExp(pattern, options.ignoreCase ? 'iu' : 'u');
  } catch (error) {
    return invalidInput(
      `workspace_grep: the pattern is not a regular expression: ${(error as Error).message}`,
    );
  }
  return (line) => expression.test(line);
}
