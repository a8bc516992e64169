import type { SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ReadLimits } from '../format/limits.js';
import { catalogProperties, type SkillProperties, skillProperties } from '../format/properties.js';
import { detachString } from '../format/unicode.js';
import type { ValidationMode } from '../format/validate-fields.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { readSkillFile, type SkillFileRef } from './reader.js';

/** The verdict on one skill directory. */
export interface SkillCheck {
  /** Absolute path of the skill directory. */
  readonly path: string;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** Present whenever name and description could be read (reference read-properties shape). */
  readonly properties?: SkillProperties;
  /** Source lines that diagnostics point at, for excerpts in text output. */
  readonly excerpts: ReadonlyMap<number, string>;
}

export interface CheckSkillOptions {
  /** `strict` (default) applies the specification; `lenient` checks as runtime loading does. */
  readonly mode?: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
  /**
   * Compute the reference-shaped properties (default true); `'catalog'`: only the name and the
   * description, all that a catalog shows.
   */
  readonly properties?: boolean | 'catalog';
  /** Check the body's relative links against the file system (default true). */
  readonly checkLinks?: boolean;
  /**
   * Check the body at all (characters, length, links; default true). Without, the verdict is
   * the frontmatter's: for a caller that wants only the properties.
   */
  readonly checkBody?: boolean;
  /**
   * Check the frontmatter's fields and `allowed-tools` (default true; false checks no body
   * either). Without, the verdict is only whether the file could be read and parsed: for a
   * caller that wants the properties and asks again, with the checks, when there are none.
   */
  readonly checkFields?: boolean;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
}

/** A skill directory to check: its path and the name (and kind, when known) of its skill file. */
export type SkillToCheck = SkillFileRef;

const noExcerpts: ReadonlyMap<number, string> = new Map();

/**
 * Validates one skill directory: the reader at the full level (strict unless told otherwise),
 * plus the reference-shaped properties and the source lines under each diagnostic.
 */
export function checkSkillDirectory(
  fs: SkillFileSystem,
  skill: SkillToCheck,
  options: CheckSkillOptions = {},
): SkillCheck {
  const reading = readSkillFile(fs, skill, {
    level: 'full',
    mode: options.mode ?? 'strict',
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.checkLinks === undefined ? {} : { checkLinks: options.checkLinks }),
    ...(options.checkBody === undefined ? {} : { checkBody: options.checkBody }),
    ...(options.checkFields === undefined ? {} : { checkFields: options.checkFields }),
    ...(options.yaml === undefined ? {} : { yaml: options.yaml }),
  });
  const { parsed, diagnostics } = reading;
  let excerpts = noExcerpts;
  if (parsed !== undefined && diagnostics.length > 0) {
    const lines = new Map<number, string>();
    for (const diagnostic of diagnostics) {
      if (diagnostic.line > 0 && !lines.has(diagnostic.line)) {
        const text = parsed.lineText(diagnostic.line);
        lines.set(
          diagnostic.line,
          text.length > 240 ? `${text.slice(0, 240)}…` : detachString(text),
        );
      }
    }
    excerpts = lines;
  }
  const properties =
    parsed === undefined || options.properties === false
      ? undefined
      : options.properties === 'catalog'
        ? catalogProperties(parsed)
        : skillProperties(parsed);
  return {
    path: skill.directory,
    valid: reading.valid,
    diagnostics,
    ...(properties === undefined ? {} : { properties }),
    excerpts,
  };
}
