import type { Code } from '../codes.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { ParsedSkill } from '../format/parse.js';
import { allowedToolsString } from '../format/properties.js';
import { type GrantProblemKind, parseAllowedTools } from '../policy/allowed-tools.js';

const codes: Record<GrantProblemKind, Code> = {
  unknown: 'ALLOWED_TOOLS_UNKNOWN',
  malformed: 'ALLOWED_TOOLS_MALFORMED',
  'too-broad': 'ALLOWED_TOOLS_TOO_BROAD',
};

/**
 * Reports, at discovery, the allowed-tools entries that will not do what the author may expect:
 * unknown tools or devices, malformed entries, and entries too broad to pre-approve anything.
 */
export function checkAllowedTools(parsed: ParsedSkill): Diagnostic[] {
  const value = allowedToolsString(parsed);
  if (value === undefined) return [];
  const location = parsed.fields.get('allowed-tools');
  const single = typeof parsed.frontmatter?.['allowed-tools'] === 'string';
  return parseAllowedTools(value).problems.map((problem) => {
    const position =
      location === undefined
        ? { line: 1, column: 1 }
        : parsed.frontmatterPosition(location.valueOffset + (single ? problem.offset : 0));
    return createDiagnostic(
      codes[problem.kind],
      'warning',
      problem.message,
      parsed.file,
      position.line,
      position.column,
    );
  });
}
