import type { Code } from '../codes.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { ParsedSkill } from '../format/parse.js';
import { allowedToolsString } from '../format/properties.js';
import { detachString } from '../format/unicode.js';
import { type GrantProblemKind, parseAllowedTools } from '../policy/allowed-tools.js';

const codes: Record<GrantProblemKind, Code> = {
  unknown: 'ALLOWED_TOOLS_UNKNOWN',
  malformed: 'ALLOWED_TOOLS_MALFORMED',
  'too-broad': 'ALLOWED_TOOLS_TOO_BROAD',
};

interface Problem {
  readonly code: Code;
  readonly offset: number;
  readonly message: string;
}

/** Distinct `allowed-tools` values remembered before the memory starts again. */
const REMEMBERED_VALUES = 256;
/**
 * The problems of each `allowed-tools` value seen lately: a tree's skills repeat a few lists of
 * tools, and the problems depend on the value alone (offsets are relative to it). Keys and
 * messages are detached from the file text they were cut from, which they would keep alive.
 */
let remembered = new Map<string, readonly Problem[]>();

function problemsOf(value: string): readonly Problem[] {
  const known = remembered.get(value);
  if (known !== undefined) return known;
  const problems = parseAllowedTools(value).problems.map((problem) => ({
    code: codes[problem.kind],
    offset: problem.offset,
    message: detachString(problem.message),
  }));
  if (remembered.size >= REMEMBERED_VALUES) remembered = new Map();
  remembered.set(detachString(value), problems);
  return problems;
}

/**
 * Reports, at discovery, the allowed-tools entries that will not do what the author may expect:
 * unknown tools or devices, malformed entries, and entries too broad to pre-approve anything.
 */
export function checkAllowedTools(parsed: ParsedSkill): Diagnostic[] {
  const value = allowedToolsString(parsed);
  if (value === undefined) return [];
  const problems = problemsOf(value);
  if (problems.length === 0) return [];
  const location = parsed.fields.get('allowed-tools');
  const single = typeof parsed.frontmatter?.['allowed-tools'] === 'string';
  return problems.map((problem) => {
    const position =
      location === undefined
        ? { line: 1, column: 1 }
        : parsed.frontmatterPosition(location.valueOffset + (single ? problem.offset : 0));
    return createDiagnostic(
      problem.code,
      'warning',
      problem.message,
      parsed.file,
      position.line,
      position.column,
    );
  });
}
