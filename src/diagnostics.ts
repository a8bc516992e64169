import type { Code } from './codes.js';

export type Severity = 'error' | 'warning' | 'info';

/**
 * One finding about a file. `line` and `column` are 1-based and point into the original file
 * (columns count Unicode code points); both are 0 when the finding is about the file as a whole.
 */
export interface Diagnostic {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export function createDiagnostic(
  code: Code,
  severity: Severity,
  message: string,
  file: string,
  line = 0,
  column = 0,
): Diagnostic {
  // Messages quote values cut from the file; a flat copy keeps them from pinning the file text.
  return {
    code,
    severity,
    message: message.length < 13 ? message : ` ${message}`.slice(1),
    file,
    line,
    column,
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  for (const diagnostic of diagnostics) if (diagnostic.severity === 'error') return true;
  return false;
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Orders diagnostics by file, line, column, then severity and code, for stable output. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  if (a.severity !== b.severity) return severityRank[a.severity] - severityRank[b.severity];
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const diagnostic of diagnostics) counts[diagnostic.severity] += 1;
  return counts;
}
