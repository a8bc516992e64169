import type { EntryKind, FileStatus, SkillFileSystem } from '../deps.js';
import {
  compareDiagnostics,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
} from '../diagnostics.js';
import { checkBody } from '../format/body.js';
import { splitFrontmatter } from '../format/frontmatter.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import type { LoadLevel } from '../format/load.js';
import { type ParsedSkill, parseSkill } from '../format/parse.js';
import { decodeSkillText, isPlainText } from '../format/text.js';
import { checkFrontmatterFields, type ValidationMode } from '../format/validate-fields.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { baseName, joinPath } from '../paths.js';
import { checkAllowedTools } from './grant-checks.js';
import { headBytes, lowercaseSkillFileWarning, SKILL_FILE_READ_CODES } from './skill-file.js';

/** A skill directory and the name of its skill file (`SKILL.md`, or `skill.md`). */
export interface SkillFileRef {
  readonly directory: string;
  readonly skillFileName: string;
  /** The entry's kind, when a directory listing already told it (saves opening a FIFO). */
  readonly skillFileKind?: EntryKind;
}

export interface ReadSkillFileOptions {
  /** `metadata` reads only the head of the file (the body never enters memory); `full` all of it. */
  readonly level: LoadLevel;
  /** `strict` applies the specification (validation); `lenient` is runtime loading. */
  readonly mode: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
  /** At the full level, check the body's relative links against the file system (default true). */
  readonly checkLinks?: boolean;
  /** At the full level, check the body at all (default true): the whole file is still read and decoded. */
  readonly checkBody?: boolean;
  /**
   * Check the frontmatter's fields and `allowed-tools` (default true). Without them (and the
   * body's checks), the diagnostics say only whether the file could be read, decoded and parsed.
   */
  readonly checkFields?: boolean;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
}

/** What one read of a skill file found. Nothing is thrown: every problem is a diagnostic. */
export interface SkillFileReading {
  /** Path of the skill file. */
  readonly file: string;
  /** The parsed text (at the metadata level, only the head); undefined when it could not be read. */
  readonly parsed: ParsedSkill | undefined;
  /** Status of the file as it was read; undefined when it could not be opened. */
  readonly status: FileStatus | undefined;
  /** Every diagnostic, sorted by position. */
  readonly diagnostics: Diagnostic[];
  /** True when no diagnostic is an error. */
  readonly valid: boolean;
}

/** Cuts a partial read back to its last complete line, so no character is split. */
function lastCompleteLine(bytes: Uint8Array): Uint8Array {
  const end = bytes.lastIndexOf(10);
  return end === -1 ? bytes.subarray(0, 0) : bytes.subarray(0, end + 1);
}

function windowProblem(limits: ReadLimits, file: string): Diagnostic {
  return createDiagnostic(
    'FRONTMATTER_TOO_LARGE',
    'error',
    `No closing --- line within the first ${limits.maxFrontmatterBytes} bytes`,
    file,
    1,
    1,
  );
}

/**
 * Whether the frontmatter closes within the head the metadata level reads. Asked only of a full
 * read whose frontmatter is unclosed or too large, so that both levels give the same verdict.
 */
function closesWithinHead(bytes: Uint8Array, head: number): boolean {
  if (bytes.length <= head) return true;
  const decoded = decodeSkillText(lastCompleteLine(bytes.subarray(0, head)), '');
  return decoded.text !== undefined && splitFrontmatter(decoded.text).ok;
}

/**
 * The one reader of a skill file, for validation (strict, full), loading (lenient, full or
 * metadata) and discovery (lenient, metadata): the same read codes, size limits and checks
 * (fields, `allowed-tools`, and at the full level the body) for all of them.
 */
export function readSkillFile(
  fs: SkillFileSystem,
  skill: SkillFileRef,
  options: ReadSkillFileOptions,
): SkillFileReading {
  const limits =
    options.limits === undefined
      ? DEFAULT_READ_LIMITS
      : { ...DEFAULT_READ_LIMITS, ...options.limits };
  const { directory, skillFileName } = skill;
  const file = joinPath(directory, skillFileName);
  const diagnostics: Diagnostic[] = [];
  const finish = (parsed: ParsedSkill | undefined, status: FileStatus | undefined) => {
    if (diagnostics.length > 1) diagnostics.sort(compareDiagnostics);
    return { file, parsed, status, diagnostics, valid: !hasErrors(diagnostics) };
  };
  const lowercase = lowercaseSkillFileWarning(skillFileName, file);
  if (lowercase !== undefined) diagnostics.push(lowercase);

  const head = headBytes(limits);
  const partial = options.level === 'metadata' && head < limits.maxSkillFileBytes;
  const read = fs.readFileWithin(directory, skillFileName, {
    maxBytes: partial ? head : limits.maxSkillFileBytes,
    ...(partial ? { allowPartial: true } : {}),
    ...(skill.skillFileKind === undefined ? {} : { knownKind: skill.skillFileKind }),
  });
  if (!read.ok) {
    const code = SKILL_FILE_READ_CODES[read.problem];
    diagnostics.push(createDiagnostic(code, 'error', `${skillFileName}: ${read.message}`, file));
    return finish(undefined, undefined);
  }
  // A partial read sees only the head: the size tells whether the whole would be refused.
  if (read.status.size > limits.maxSkillFileBytes) {
    diagnostics.push(
      createDiagnostic(
        'SKILL_FILE_TOO_LARGE',
        'error',
        `${skillFileName}: It is larger than the ${limits.maxSkillFileBytes}-byte limit`,
        file,
      ),
    );
    return finish(undefined, read.status);
  }
  const bytes = read.partial ? lastCompleteLine(read.bytes) : read.bytes;
  // Known before the bytes may be reused: a body of plain text needs no character check.
  const plainText =
    options.level === 'full' &&
    options.checkBody !== false &&
    options.checkFields !== false &&
    isPlainText(bytes);
  const decoded = decodeSkillText(bytes, file);
  for (const diagnostic of decoded.diagnostics) diagnostics.push(diagnostic);
  if (decoded.text === undefined) return finish(undefined, read.status);

  const parsed = parseSkill(
    decoded.text,
    { file, directoryName: baseName(directory) },
    {
      ...(options.limits === undefined ? {} : { limits }),
      ...(options.yaml === undefined ? {} : { yaml: options.yaml }),
    },
  );
  for (const diagnostic of parsed.diagnostics) {
    const code = diagnostic.code;
    const beyondHead =
      (code === 'FRONTMATTER_UNCLOSED' && read.partial) ||
      ((code === 'FRONTMATTER_UNCLOSED' || code === 'FRONTMATTER_TOO_LARGE') &&
        !read.partial &&
        !closesWithinHead(read.bytes, head));
    diagnostics.push(beyondHead ? windowProblem(limits, file) : diagnostic);
  }
  if (options.checkFields === false) return finish(parsed, read.status);
  for (const diagnostic of checkFrontmatterFields(parsed, { mode: options.mode }))
    diagnostics.push(diagnostic);
  for (const diagnostic of checkAllowedTools(parsed)) diagnostics.push(diagnostic);
  if (options.level === 'full' && options.checkBody !== false) {
    // A body may link the same file many times (each section to one reference): ask once. The
    // first answer is kept on its own; a map is made only for a second path.
    let firstPath: string | undefined;
    let firstAnswer = false;
    let answers: Map<string, boolean> | undefined;
    const fileExists =
      options.checkLinks === false
        ? undefined
        : (relativePath: string) => {
            if (relativePath === firstPath) return firstAnswer;
            const known = answers?.get(relativePath);
            if (known !== undefined) return known;
            const path = joinPath(directory, relativePath);
            const exists =
              fs.exists === undefined ? fs.status(path, false) !== undefined : fs.exists(path);
            if (firstPath === undefined) {
              firstPath = relativePath;
              firstAnswer = exists;
            } else {
              answers ??= new Map();
              answers.set(relativePath, exists);
            }
            return exists;
          };
    for (const diagnostic of checkBody(parsed, {
      mode: options.mode,
      plainText,
      ...(fileExists === undefined ? {} : { fileExists }),
    }))
      diagnostics.push(diagnostic);
  }
  return finish(parsed, read.status);
}
