import {
  countBySeverity,
  type Diagnostic,
  describeCode,
  type SkillCheck,
  type ValidationReport,
} from '../node/checks.js';
import { jsonItems } from './json-items.js';
import { printable } from './printable.js';
import type { Style } from './style.js';

export { printable } from './printable.js';

/** Shows a path relative to the working directory when it lies below it. */
export function displayPath(path: string, cwd: string): string {
  if (path === cwd) return '.';
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function caretPadding(excerpt: string, column: number): string {
  let prefix = '';
  let count = 1;
  for (const character of excerpt) {
    if (count >= column) break;
    prefix += character;
    count += 1;
  }
  return printable(prefix, true).replace(/[^\t]/gu, ' ');
}

/** One diagnostic, compiler style: location, severity, code, message, excerpt with caret, hint. */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  excerpt: string | undefined,
  cwd: string,
  style: Style,
): string {
  const file = printable(displayPath(diagnostic.file, cwd));
  const location = diagnostic.line > 0 ? `${file}:${diagnostic.line}:${diagnostic.column}` : file;
  const severity =
    diagnostic.severity === 'error'
      ? style.red(style.bold('error'))
      : diagnostic.severity === 'warning'
        ? style.yellow(style.bold('warning'))
        : style.cyan('info');
  const lines = [
    `${style.bold(`${location}:`)} ${severity} ${style.dim(diagnostic.code)}: ${printable(diagnostic.message)}`,
  ];
  if (diagnostic.line > 0 && excerpt !== undefined) {
    const gutter = String(diagnostic.line);
    const blank = ' '.repeat(gutter.length);
    lines.push(` ${style.dim(`${gutter} |`)} ${printable(excerpt, true)}`);
    lines.push(
      ` ${style.dim(`${blank} |`)} ${caretPadding(excerpt, diagnostic.column)}${style.bold('^')}`,
    );
  }
  lines.push(`  ${style.dim('= hint:')} ${describeCode(diagnostic.code).hint}`);
  return lines.join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The last line of a validate run. */
export function formatSummary(report: ValidationReport, style: Style): string {
  const all = report.results.flatMap((result) => result.diagnostics).concat(report.diagnostics);
  const counts = countBySeverity(all);
  const { skills, valid, invalid, unchecked } = report.summary;
  const findings = [
    counts.error > 0 ? style.red(plural(counts.error, 'error')) : undefined,
    counts.warning > 0 ? style.yellow(plural(counts.warning, 'warning')) : undefined,
  ].filter((part): part is string => part !== undefined);
  const verdict =
    skills === 0
      ? ''
      : invalid === 0
        ? `: ${style.green(skills === 1 ? 'valid' : 'all valid')}`
        : `: ${valid} valid, ${style.red(`${invalid} invalid`)}`;
  const notChecked =
    unchecked === 0 ? '' : `; ${style.red(`${plural(unchecked, 'PATH')} not checked`)}`;
  return `Checked ${plural(skills, 'skill')}${verdict}${notChecked}${findings.length > 0 ? ` (${findings.join(', ')})` : ''}`;
}

/** With `quiet`, only errors are shown (the summary still counts everything). */
const shown = (diagnostic: Diagnostic, quiet: boolean) => !quiet || diagnostic.severity === 'error';

export function formatTextReport(
  report: ValidationReport,
  cwd: string,
  style: Style,
  quiet = false,
): string {
  const blocks: string[] = [];
  for (const diagnostic of report.diagnostics) {
    if (shown(diagnostic, quiet)) blocks.push(formatDiagnostic(diagnostic, undefined, cwd, style));
  }
  for (const result of report.results) {
    for (const diagnostic of result.diagnostics) {
      if (!shown(diagnostic, quiet)) continue;
      blocks.push(formatDiagnostic(diagnostic, result.excerpts.get(diagnostic.line), cwd, style));
    }
  }
  blocks.push(formatSummary(report, style));
  return `${blocks.join('\n\n')}\n`;
}

function escapeAnnotationData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeAnnotationProperty(text: string): string {
  return printable(escapeAnnotationData(text).replace(/:/g, '%3A').replace(/,/g, '%2C'));
}

/**
 * GitHub Actions workflow commands, one annotation per diagnostic, with file paths relative to
 * `root` (the repository's root), which is where GitHub looks for the file of an annotation.
 */
export function formatGithubReport(report: ValidationReport, root: string, quiet = false): string {
  const lines: string[] = [];
  const all = [...report.diagnostics, ...report.results.flatMap((result) => result.diagnostics)];
  for (const diagnostic of all) {
    if (!shown(diagnostic, quiet)) continue;
    const command =
      diagnostic.severity === 'error'
        ? 'error'
        : diagnostic.severity === 'warning'
          ? 'warning'
          : 'notice';
    const properties = [`file=${escapeAnnotationProperty(displayPath(diagnostic.file, root))}`];
    if (diagnostic.line > 0) {
      properties.push(`line=${diagnostic.line}`, `col=${diagnostic.column}`);
    }
    properties.push(`title=${escapeAnnotationProperty(diagnostic.code)}`);
    lines.push(
      `::${command} ${properties.join(',')}::${printable(escapeAnnotationData(diagnostic.message))}`,
    );
  }
  const { skills, valid, invalid, unchecked } = report.summary;
  lines.push(
    `Checked ${plural(skills, 'skill')}: ${valid} valid, ${invalid} invalid${unchecked === 0 ? '' : `; ${plural(unchecked, 'PATH')} not checked`}`,
  );
  return `${lines.join('\n')}\n`;
}

function diagnosticJson(diagnostic: Diagnostic) {
  return {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    file: diagnostic.file,
    line: diagnostic.line,
    column: diagnostic.column,
  };
}

function resultJson(result: SkillCheck) {
  return {
    path: result.path,
    valid: result.valid,
    diagnostics: result.diagnostics.map(diagnosticJson),
    ...(result.properties === undefined ? {} : { properties: result.properties }),
  };
}

/** The --json document: results and summary, plus tree-level diagnostics when there are any. */
export function formatJsonReport(report: ValidationReport): string {
  const document = {
    results: report.results.map(resultJson),
    summary: report.summary,
    ...(report.diagnostics.length > 0
      ? { diagnostics: report.diagnostics.map(diagnosticJson) }
      : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The --json document written as the verdicts come, byte for byte what `formatJsonReport` makes
 * of the same report: `add` each verdict in order, then `end` with the report (its results
 * unused). Output goes out a hundred verdicts at a time; no more are kept.
 */
export function jsonReportWriter(write: (text: string) => void): {
  add(result: SkillCheck): void;
  end(report: ValidationReport): void;
} {
  const items = jsonItems();
  let count = 0;
  return {
    add: (result) => {
      items.add(resultJson(result));
      if (count === 0) write('{\n  "results": [\n    ');
      count += 1;
      if (items.full) items.take(write);
    },
    end: (report) => {
      const rest = JSON.stringify(
        {
          summary: report.summary,
          ...(report.diagnostics.length > 0
            ? { diagnostics: report.diagnostics.map(diagnosticJson) }
            : {}),
        },
        null,
        2,
      );
      items.take(write);
      write(`${count === 0 ? '{\n  "results": [],\n' : '\n  ],\n'}${rest.slice(2)}\n`);
    },
  };
}

/** JSON with every non-ASCII character escaped, as Python's json.dumps does by default. */
export function asciiJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
