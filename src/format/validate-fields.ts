import type { Code } from '../codes.js';
import { createDiagnostic, type Diagnostic, type Severity } from '../diagnostics.js';
import { quote } from '../quote.js';
import { identityProblem, skillIdentity } from './identity.js';
import {
  CLIENT_SPECIFIC_FIELDS,
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  SPEC_FIELDS,
} from './limits.js';
import type { ParsedSkill } from './parse.js';
import { findKeywordStuffing } from './terms.js';
import {
  codePointLength,
  countInvisible,
  isAsciiName,
  isLetterOrDigit,
  pythonStrip,
} from './unicode.js';
import { type FrontmatterValue, isFrontmatterMap } from './yaml-types.js';

/**
 * `strict` is the specification as the reference validator applies it: every violation is an
 * error. `lenient` is runtime loading: only what makes a skill unusable is an error.
 */
export type ValidationMode = 'strict' | 'lenient';

export interface FieldCheckOptions {
  readonly mode: ValidationMode;
}

interface Reporter {
  add(code: Code, severity: Severity, message: string, field?: string, child?: string): void;
  /** error in strict mode, warning in lenient mode */
  rule(code: Code, message: string, field?: string, child?: string): void;
}

function describeType(value: FrontmatterValue): string {
  if (typeof value === 'string') return 'text';
  return Array.isArray(value) ? 'a list' : 'a mapping';
}

function createReporter(parsed: ParsedSkill, mode: ValidationMode, out: Diagnostic[]): Reporter {
  const locate = (field?: string, child?: string): { line: number; column: number } => {
    if (field === undefined) return { line: 1, column: 1 };
    const location = parsed.fields.get(field);
    if (location === undefined) return { line: 1, column: 1 };
    if (child !== undefined) {
      const childLocation = location.children?.get(child);
      if (childLocation !== undefined) return parsed.frontmatterPosition(childLocation.valueOffset);
    }
    return parsed.frontmatterPosition(field === undefined ? 0 : location.valueOffset);
  };
  const add = (code: Code, severity: Severity, message: string, field?: string, child?: string) => {
    const { line, column } = locate(field, child);
    out.push(createDiagnostic(code, severity, message, parsed.file, line, column));
  };
  return {
    add,
    rule: (code, message, field, child) =>
      add(code, mode === 'strict' ? 'error' : 'warning', message, field, child),
  };
}

function checkUnknownFields(parsed: ParsedSkill, mode: ValidationMode, out: Diagnostic[]): void {
  const frontmatter = parsed.frontmatter;
  if (frontmatter === undefined) return;
  for (const key of Object.keys(frontmatter)) {
    if (SPEC_FIELDS.has(key)) continue;
    const location = parsed.fields.get(key);
    const { line, column } =
      location === undefined
        ? { line: 1, column: 1 }
        : parsed.frontmatterPosition(location.keyOffset);
    const clientSpecific = CLIENT_SPECIFIC_FIELDS.has(key);
    if (mode === 'strict') {
      const suffix = clientSpecific
        ? ' (some clients understand it; the specification does not)'
        : '';
      out.push(
        createDiagnostic(
          'FIELD_UNKNOWN',
          'error',
          `Unexpected field ${quote(key)}${suffix}: only name, description, license, compatibility, metadata and allowed-tools are allowed`,
          parsed.file,
          line,
          column,
        ),
      );
    } else {
      out.push(
        createDiagnostic(
          clientSpecific ? 'FIELD_CLIENT_SPECIFIC' : 'FIELD_UNKNOWN',
          'warning',
          clientSpecific
            ? `Field ${quote(key)} is understood by some clients only; others ignore it`
            : `Unexpected field ${quote(key)} is ignored`,
          parsed.file,
          line,
          column,
        ),
      );
    }
  }
}

/** The name rules of the specification, as the reference validator applies them. */
/**
 * Lenient loading knows a skill by its directory's name, so that name must be usable as one.
 * (Strict validation already fails such a skill: its name cannot equal the directory's.)
 */
function checkDirectoryName(parsed: ParsedSkill, report: Reporter): void {
  const directoryName = parsed.directoryName;
  if (directoryName === undefined) return;
  const problem = identityProblem(directoryName);
  if (problem === undefined) return;
  report.add(
    'DIRECTORY_NAME_INVALID',
    'error',
    `The skill directory ${quote(directoryName)} cannot name a skill: ${problem}`,
  );
}

function checkName(parsed: ParsedSkill, report: Reporter, mode: ValidationMode): void {
  const raw = parsed.frontmatter?.name;
  if (raw === undefined) {
    report.add('NAME_MISSING', 'error', 'Missing required field: name');
    return;
  }
  if (typeof raw !== 'string') {
    report.add(
      'NAME_NOT_STRING',
      'error',
      `Field 'name' must be text, not ${describeType(raw)}`,
      'name',
    );
    return;
  }
  const trimmed = pythonStrip(raw);
  if (trimmed === '') {
    report.add('NAME_EMPTY', 'error', "Field 'name' is empty", 'name');
    return;
  }
  // ASCII text is its own NFKC form and its own code-point count: skip the Unicode work.
  const ascii = isAsciiName(trimmed);
  const name = ascii ? trimmed : trimmed.normalize('NFKC');
  let formatProblem = false;
  const length = ascii ? name.length : codePointLength(name);
  if (length > MAX_NAME_LENGTH) {
    formatProblem = true;
    report.rule(
      'NAME_TOO_LONG',
      `Skill name is ${length} characters long; the limit is ${MAX_NAME_LENGTH}`,
      'name',
    );
  }
  if (!ascii && name !== name.toLowerCase()) {
    formatProblem = true;
    report.rule('NAME_NOT_LOWERCASE', `Skill name ${quote(name)} must be lower-case`, 'name');
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    formatProblem = true;
    report.rule(
      'NAME_HYPHEN_EDGE',
      `Skill name ${quote(name)} must not start or end with a hyphen`,
      'name',
    );
  }
  if (name.includes('--')) {
    formatProblem = true;
    report.rule(
      'NAME_CONSECUTIVE_HYPHENS',
      `Skill name ${quote(name)} must not contain consecutive hyphens`,
      'name',
    );
  }
  const invalid = ascii
    ? []
    : [...name].filter((character) => character !== '-' && !isLetterOrDigit(character));
  if (invalid.length > 0) {
    formatProblem = true;
    // An invisible or control character in a name is never merely a style problem: the name is
    // how people and models address the skill.
    if (invalid.some((character) => countInvisible(character) > 0 || /\p{Cc}/u.test(character))) {
      report.add(
        'NAME_INVALID_CHARACTERS',
        'error',
        `Skill name has invisible or control characters: ${[...new Set(invalid)]
          .slice(0, 5)
          .map((c) => JSON.stringify(c))
          .join(', ')}`,
        'name',
      );
      return;
    }
    const shown = [...new Set(invalid)]
      .slice(0, 5)
      .map((character) => JSON.stringify(character))
      .join(', ');
    report.rule(
      'NAME_INVALID_CHARACTERS',
      `Skill name ${quote(name)} has characters other than letters, digits and hyphens: ${shown}`,
      'name',
    );
  }
  const directoryName = parsed.directoryName;
  if (
    directoryName !== undefined &&
    directoryName !== name &&
    directoryName.normalize('NFKC') !== name
  ) {
    // At runtime the directory's name is the skill's name: the claim never makes it another skill.
    report.rule(
      'NAME_DIRECTORY_MISMATCH',
      mode === 'strict'
        ? `Skill name ${quote(name)} must match its directory name ${quote(directoryName)}`
        : `Skill name ${quote(name)} differs from its directory name ${quote(directoryName)}; it is known as ${quote(skillIdentity(directoryName))}`,
      'name',
    );
  }
  if (name !== raw) {
    report.add(
      'NAME_NOT_NORMALIZED',
      'warning',
      `Skill name ${quote(raw)} is read as ${quote(name)} once trimmed and NFKC-normalised`,
      'name',
    );
  }
  if (!formatProblem && !ascii && !isAsciiName(name)) {
    report.add(
      'NAME_NOT_ASCII',
      'warning',
      `Skill name ${quote(name)} is valid, but clients that allow only a-z, 0-9 and - will reject it`,
      'name',
    );
  }
}

function checkDescription(parsed: ParsedSkill, report: Reporter): void {
  const raw = parsed.frontmatter?.description;
  if (raw === undefined) {
    report.add('DESCRIPTION_MISSING', 'error', 'Missing required field: description');
    return;
  }
  if (typeof raw !== 'string') {
    report.add(
      'DESCRIPTION_NOT_STRING',
      'error',
      `Field 'description' must be text, not ${describeType(raw)}`,
      'description',
    );
    return;
  }
  if (pythonStrip(raw) === '') {
    report.add('DESCRIPTION_EMPTY', 'error', "Field 'description' is empty", 'description');
    return;
  }
  const hidden = countInvisible(raw);
  if (hidden > 0) {
    report.add(
      'DESCRIPTION_HIDDEN_UNICODE',
      'warning',
      `The description holds ${hidden} invisible character${hidden === 1 ? '' : 's'}; catalogs strip them`,
      'description',
    );
  }
  const stuffing = findKeywordStuffing(raw);
  if (stuffing !== undefined) {
    report.add(
      'DESCRIPTION_KEYWORD_STUFFING',
      'warning',
      `The description repeats ${quote(stuffing.term)} ${stuffing.count} times in ${stuffing.terms} terms (${Math.round((100 * stuffing.count) / stuffing.terms)}%); routing counts each of its terms once`,
      'description',
    );
  }
  const length = codePointLength(raw);
  if (length > MAX_DESCRIPTION_LENGTH) {
    report.rule(
      'DESCRIPTION_TOO_LONG',
      `Description is ${length} characters long; the limit is ${MAX_DESCRIPTION_LENGTH}`,
      'description',
    );
  }
}

function checkOptionalFields(parsed: ParsedSkill, report: Reporter): void {
  const frontmatter = parsed.frontmatter;
  if (frontmatter === undefined) return;
  const license = frontmatter.license;
  if (license !== undefined && typeof license !== 'string') {
    report.rule(
      'LICENSE_NOT_STRING',
      `Field 'license' must be text, not ${describeType(license)}`,
      'license',
    );
  }
  const compatibility = frontmatter.compatibility;
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string') {
      report.rule(
        'COMPATIBILITY_NOT_STRING',
        `Field 'compatibility' must be text, not ${describeType(compatibility)}`,
        'compatibility',
      );
    } else {
      const length = codePointLength(compatibility);
      if (length > MAX_COMPATIBILITY_LENGTH) {
        report.rule(
          'COMPATIBILITY_TOO_LONG',
          `Compatibility is ${length} characters long; the limit is ${MAX_COMPATIBILITY_LENGTH}`,
          'compatibility',
        );
      } else if (pythonStrip(compatibility) === '') {
        report.add(
          'COMPATIBILITY_EMPTY',
          'warning',
          "Field 'compatibility' is empty",
          'compatibility',
        );
      }
    }
  }
  const metadata = frontmatter.metadata;
  if (metadata !== undefined) {
    if (metadata === '') {
      // `metadata:` with nothing after it is YAML's null: no metadata, as the reference reads it.
      report.add('METADATA_EMPTY', 'warning', "Field 'metadata' is empty", 'metadata');
    } else if (!isFrontmatterMap(metadata)) {
      report.rule(
        'METADATA_NOT_MAPPING',
        `Field 'metadata' must be a mapping of text keys to text values, not ${describeType(metadata)}`,
        'metadata',
      );
    } else {
      for (const key in metadata) {
        const value = metadata[key] as FrontmatterValue;
        if (typeof value !== 'string') {
          report.rule(
            'METADATA_VALUE_NOT_STRING',
            `metadata.${quote(key)} must be text, not ${describeType(value)}`,
            'metadata',
            key,
          );
        }
      }
    }
  }
  const allowedTools = frontmatter['allowed-tools'];
  if (allowedTools !== undefined && typeof allowedTools !== 'string') {
    const listOfText =
      Array.isArray(allowedTools) && allowedTools.every((t) => typeof t === 'string');
    report.rule(
      'ALLOWED_TOOLS_NOT_STRING',
      listOfText
        ? "Field 'allowed-tools' must be one space-separated string, not a list"
        : `Field 'allowed-tools' must be one space-separated string, not ${describeType(allowedTools)}`,
      'allowed-tools',
    );
  }
}

/** Checks the frontmatter fields of a parsed skill against the specification. */
export function checkFrontmatterFields(
  parsed: ParsedSkill,
  options: FieldCheckOptions,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (parsed.frontmatter === undefined) return out;
  const report = createReporter(parsed, options.mode, out);
  checkUnknownFields(parsed, options.mode, out);
  checkName(parsed, report, options.mode);
  if (options.mode === 'lenient') checkDirectoryName(parsed, report);
  checkDescription(parsed, report);
  checkOptionalFields(parsed, report);
  return out;
}
