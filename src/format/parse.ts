import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { splitFrontmatter } from './frontmatter.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './limits.js';
import { LineIndex, type Position } from './text.js';
import { utf8Length } from './unicode.js';
import type { YamlSource } from './yaml-engine.js';
import { parseYamlFast } from './yaml-fast.js';
import { parseYamlWithLibrary } from './yaml-library.js';
import type { FieldLocation, FrontmatterMap, YamlResult } from './yaml-types.js';

/** Where a SKILL.md text came from: used in diagnostics and for the directory-name rule. */
export interface SkillLocation {
  /** The file path reported in diagnostics. */
  readonly file: string;
  /** The name of the skill directory, compared with the `name` field. */
  readonly directoryName?: string;
}

export interface ParseOptions {
  readonly limits?: Partial<ReadLimits>;
  /** Use the fast scanner for the plain subset of YAML (default true). */
  readonly fastPath?: boolean;
  /**
   * The YAML library, or a function that loads it, for a frontmatter the fast scanner cannot
   * read; without it, such a frontmatter gets YAML_LIBRARY_MISSING. The public entries pass it.
   */
  readonly yaml?: YamlSource;
}

/** The result of reading one SKILL.md text: never throws, problems are diagnostics. */
export interface ParsedSkill {
  readonly file: string;
  readonly directoryName: string | undefined;
  /** The frontmatter fields, or undefined when the frontmatter could not be read as a mapping. */
  readonly frontmatter: FrontmatterMap | undefined;
  /** Where each top-level field starts. */
  readonly fields: ReadonlyMap<string, FieldLocation>;
  /** The Markdown after the closing delimiter, or undefined when the file has no valid frontmatter. */
  readonly body: string | undefined;
  /** 1-based line of the first body line in the file. */
  readonly bodyLine: number;
  /** Structural, encoding and YAML diagnostics found while parsing. */
  readonly diagnostics: readonly Diagnostic[];
  /** Position in the file of an offset into the frontmatter text. */
  frontmatterPosition(offset: number): Position;
  /** Position in the file of an offset into the body text. */
  bodyPosition(offset: number): Position;
  /** The text of a 1-based line of the file (for excerpts under diagnostics). */
  lineText(line: number): string;
}

const noFields: ReadonlyMap<string, FieldLocation> = new Map();

/**
 * Parses SKILL.md text (already decoded) into frontmatter and body. Pure: no I/O, never throws.
 *
 * @example parseSkill('---\nname: demo\ndescription: Demo.\n---\nBody', { file: 'demo/SKILL.md' })
 */
export function parseSkill(
  source: string,
  location: SkillLocation,
  options: ParseOptions = {},
): ParsedSkill {
  // A lone carriage return ends a line, as in Python's universal newlines (the reference reads
  // files that way). Replacing it one for one keeps every offset.
  const text = source.includes('\r') ? source.replace(/\r(?!\n)/g, '\n') : source;
  const limits =
    options.limits === undefined
      ? DEFAULT_READ_LIMITS
      : { ...DEFAULT_READ_LIMITS, ...options.limits };
  const index = new LineIndex(text);
  const file = location.file;
  const directoryName = location.directoryName;
  const split = splitFrontmatter(text);
  if (!split.ok) {
    const position = index.position(split.offset);
    return makeParsed(file, directoryName, undefined, noFields, undefined, 0, index, 0, 0, [
      createDiagnostic(split.code, 'error', split.message, file, position.line, position.column),
    ]);
  }
  const { frontmatter, frontmatterOffset, bodyOffset } = split;
  if (
    frontmatter.length > limits.maxFrontmatterBytes / 3 &&
    utf8Length(frontmatter) > limits.maxFrontmatterBytes
  ) {
    return makeParsed(file, directoryName, undefined, noFields, undefined, 0, index, 0, 0, [
      createDiagnostic(
        'FRONTMATTER_TOO_LARGE',
        'error',
        `The frontmatter is ${utf8Length(frontmatter)} bytes; the limit is ${limits.maxFrontmatterBytes}`,
        file,
        2,
        1,
      ),
    ]);
  }
  const yaml: YamlResult =
    (options.fastPath === false ? undefined : parseYamlFast(frontmatter)) ??
    parseYamlWithLibrary(frontmatter, limits.maxYamlDepth, options.yaml);
  const diagnostics: Diagnostic[] = [];
  let fatal = false;
  for (const problem of yaml.problems) {
    const position = index.position(frontmatterOffset + problem.offset);
    if (problem.severity === 'error') fatal = true;
    diagnostics.push(
      createDiagnostic(
        problem.code,
        problem.severity,
        problem.message,
        file,
        position.line,
        position.column,
      ),
    );
  }
  const data = fatal ? undefined : yaml.data;
  return makeParsed(
    file,
    directoryName,
    data,
    fatal ? noFields : yaml.locations,
    split.body,
    split.bodyLine,
    index,
    frontmatterOffset,
    bodyOffset,
    diagnostics,
  );
}

function makeParsed(
  file: string,
  directoryName: string | undefined,
  frontmatter: FrontmatterMap | undefined,
  fields: ReadonlyMap<string, FieldLocation>,
  body: string | undefined,
  bodyLine: number,
  index: LineIndex,
  frontmatterOffset: number,
  bodyOffset: number,
  diagnostics: readonly Diagnostic[],
): ParsedSkill {
  return {
    file,
    directoryName,
    frontmatter,
    fields,
    body,
    bodyLine,
    diagnostics,
    frontmatterPosition: (offset) => index.position(frontmatterOffset + offset),
    bodyPosition: (offset) => index.position(bodyOffset + offset),
    lineText: (line) => index.lineText(line),
  };
}
