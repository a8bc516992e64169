import type { SkillFileSystem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { ReadLimits } from '../format/limits.js';
import type { ValidationMode } from '../format/validate-fields.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { baseName, parentPath } from '../paths.js';
import { checkSkillDirectory, type SkillCheck } from './check.js';
import { findSkillFileEntry } from './skill-file.js';
import { checkTree, type TreeCheckHelper } from './tree-check.js';
import type { WalkOptions } from './walker.js';

export interface ValidatePathsOptions {
  readonly fs: SkillFileSystem;
  readonly mode?: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
  readonly walk?: WalkOptions;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
  /** Called with each skill's verdict as soon as it is known. */
  readonly onResult?: (check: SkillCheck) => void;
  /**
   * Which verdicts the report keeps: `all` (default), only those `with-diagnostics`, which
   * keeps memory flat on large trees when clean skills need no output, or `none`, for a caller
   * that takes each verdict from `onResult` (with `walk.pathOrder` and one path they come in
   * the order of their paths). The summary counts all.
   */
  readonly retain?: 'all' | 'with-diagnostics' | 'none';
  /** Compute reference-shaped properties for each skill (default true). */
  readonly properties?: boolean;
  /**
   * Another thread to share each tree's folders with (skillhost/node gives one for the real
   * file system); the report is the same with or without.
   */
  readonly helper?: TreeCheckHelper;
}

export interface ValidationSummary {
  /** Skills checked (a PATH that is missing, unreadable or holds no skill is not one). */
  readonly skills: number;
  readonly valid: number;
  readonly invalid: number;
  /** PATHs that could not be checked: missing, unreadable, or holding no skill (see `diagnostics`). */
  readonly unchecked: number;
}

export interface ValidationReport {
  /**
   * One verdict per skill directory, sorted by path; only those with diagnostics when `retain`
   * is `with-diagnostics`.
   */
  readonly results: readonly SkillCheck[];
  /**
   * Findings about the PATHs and trees themselves: a PATH missing, unreadable or holding no
   * skill (PATH_NOT_FOUND, PATH_UNREADABLE, NO_SKILLS_FOUND), limits reached, loops.
   */
  readonly diagnostics: readonly Diagnostic[];
  readonly summary: ValidationSummary;
  /** True when some path could not be read at all (the CLI exits 2). */
  readonly unreadablePaths: boolean;
}

/**
 * Validates every skill found under the given absolute paths. A path may be a skill directory,
 * a SKILL.md file, or a folder holding skill directories at any depth within the walk limits
 * (a skill directory's own sub-folders are its resources: no skill is searched for in them).
 */
export function validateSkillPaths(
  paths: readonly string[],
  options: ValidatePathsOptions,
): ValidationReport {
  const { fs } = options;
  const fieldOptions = {
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.properties === undefined ? {} : { properties: options.properties }),
  };
  const checkOptions =
    options.yaml === undefined ? fieldOptions : { ...fieldOptions, yaml: options.yaml };
  const retain = options.retain ?? 'all';
  const seen = new Set<string>();
  const kept: SkillCheck[] = [];
  const diagnostics: Diagnostic[] = [];
  let unreadablePaths = false;
  let unchecked = 0;
  // A PATH that cannot be checked is a finding about the PATH, not a skill's verdict.
  const failedPath = (
    path: string,
    code: 'PATH_NOT_FOUND' | 'PATH_UNREADABLE' | 'NO_SKILLS_FOUND',
    message: string,
  ): void => {
    unchecked += 1;
    diagnostics.push(createDiagnostic(code, 'error', message, path));
  };
  let total = 0;
  let valid = 0;
  // Only several PATHs can lead to one skill twice (a walk finds each once).
  const overlapping = paths.length > 1;
  const record = (check: SkillCheck): void => {
    if (overlapping) {
      if (seen.has(check.path)) return;
      seen.add(check.path);
    }
    total += 1;
    if (check.valid) valid += 1;
    if (retain === 'all' || (retain === 'with-diagnostics' && check.diagnostics.length > 0))
      kept.push(check);
    options.onResult?.(check);
  };
  for (const path of paths) {
    const status = fs.status(path, true);
    if (status === undefined) {
      unreadablePaths = true;
      failedPath(path, 'PATH_NOT_FOUND', 'Path does not exist');
      continue;
    }
    if (status.kind !== 'directory') {
      const name = baseName(path);
      if (name.toLowerCase() !== 'skill.md') {
        unreadablePaths = true;
        failedPath(path, 'PATH_UNREADABLE', 'Path is neither a directory nor a SKILL.md file');
        continue;
      }
      const directory = parentPath(path);
      const listing = fs.listDirectory(directory);
      const entry = listing.ok ? findSkillFileEntry(listing.entries) : undefined;
      record(
        checkSkillDirectory(
          fs,
          {
            directory,
            skillFileName: entry?.name ?? name,
            ...(entry === undefined ? {} : { skillFileKind: entry.kind }),
          },
          checkOptions,
        ),
      );
      continue;
    }
    let found = 0;
    let rootUnreadable: string | undefined;
    checkTree(
      fs,
      path,
      {
        check: fieldOptions,
        walk: options.walk ?? {},
        ...(options.yaml === undefined ? {} : { yaml: options.yaml }),
      },
      {
        skill: ({ check }) => {
          found += 1;
          record(check);
        },
        diagnostic: (diagnostic) => diagnostics.push(diagnostic),
        // The PATH itself cannot be read: that is the path's verdict, not a finding of the walk.
        rootProblem: (problem) => {
          rootUnreadable = problem;
        },
      },
      options.helper,
    );
    if (rootUnreadable !== undefined) {
      unreadablePaths = true;
      failedPath(path, 'PATH_UNREADABLE', `Directory cannot be listed: ${rootUnreadable}`);
      continue;
    }
    if (found === 0) {
      failedPath(
        path,
        'NO_SKILLS_FOUND',
        'No skill found: no directory at or below this path holds a SKILL.md',
      );
    }
  }
  const results = kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    results,
    diagnostics,
    summary: { skills: total, valid, invalid: total - valid, unchecked },
    unreadablePaths,
  };
}
