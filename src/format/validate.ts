import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import { type BodyCheckOptions, checkBody } from './body.js';
import type { ParsedSkill } from './parse.js';
import { checkFrontmatterFields, type ValidationMode } from './validate-fields.js';

export interface ValidateOptions extends BodyCheckOptions {
  /** `strict` (default) applies the specification; `lenient` is runtime loading. */
  readonly mode?: ValidationMode;
}

/**
 * All diagnostics for a parsed skill: parsing, fields and body, in file order. A skill is valid
 * when none of them is an error.
 *
 * @example validateSkill(parseSkill(text, { file, directoryName: 'demo' }), { mode: 'strict' })
 */
export function validateSkill(parsed: ParsedSkill, options: ValidateOptions = {}): Diagnostic[] {
  const mode = options.mode ?? 'strict';
  const diagnostics = checkFrontmatterFields(parsed, { mode });
  for (const diagnostic of parsed.diagnostics) diagnostics.push(diagnostic);
  for (const diagnostic of checkBody(parsed, options)) diagnostics.push(diagnostic);
  return diagnostics.length > 1 ? diagnostics.sort(compareDiagnostics) : diagnostics;
}
