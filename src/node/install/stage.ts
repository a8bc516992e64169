import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import {
  createDiagnostic,
  type Diagnostic,
  readSkillDirectory,
  type SkillFileSystem,
  type YamlSource,
} from '../../core.js';
import { isValidSkillFolderName, walkSkillTree } from '../../internal.js';
import type { FetchedSource } from './fetch.js';
import { type CopiedTree, copySkillFolder, type TreeLimits } from './tree.js';

/** A skill found in a fetched source. */
export interface SourceSkill {
  /** The name it is installed under: its folder's name (the name it claims, when the source's root is the skill). */
  readonly name: string;
  /** Its folder in the fetched source. */
  readonly directory: string;
  /** Its folder relative to the source's root (`.` for the root itself), as the lockfile records it. */
  readonly path: string;
}

export interface FoundSkills {
  readonly skills: readonly SourceSkill[];
  /** Findings of the search: limits reached, folders skipped, two skills of one name. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Finds the skills of a fetched source with the one walker (sorted, bounded, links not
 * followed). A skill at the source's root is named by the `name` its SKILL.md claims, since the
 * root's folder name is the repository's or the archive's, not the skill's.
 */
export function findSourceSkills(
  fetched: FetchedSource,
  fs: SkillFileSystem,
  yaml: YamlSource,
): FoundSkills {
  const skills: SourceSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const root = realpathSync(fetched.root);
  walkSkillTree(
    fs,
    fetched.searchRoot,
    {
      skill: (found) => {
        const path = relative(root, realpathSync(found.directory)) || '.';
        let name = basename(found.directory);
        if (path === '.') {
          const claimed = readSkillDirectory(fs, found.directory, { level: 'metadata', yaml }).skill
            ?.metadata.name;
          if (claimed !== undefined && isValidSkillFolderName(claimed)) name = claimed;
        }
        const twin = skills.find((skill) => skill.name === name);
        if (twin !== undefined) {
          diagnostics.push(
            createDiagnostic(
              'SKILL_DUPLICATE',
              'error',
              `Two skills are named ${name} in the source (${twin.path} and ${path}); only the first can be installed`,
              found.directory,
            ),
          );
          return;
        }
        skills.push({ name, directory: found.directory, path });
      },
      diagnostic: (diagnostic) => diagnostics.push(diagnostic),
    },
    { followSymlinks: false },
  );
  return { skills, diagnostics };
}

/** A staging folder next to the skills folder (same file system, so moving in is a rename). */
export interface Staging {
  readonly directory: string;
  /** Copies a skill into the staging folder under its name. */
  stage(skill: SourceSkill, limits?: TreeLimits): StagedSkill;
  /** Removes the staging folder and whatever is still in it. */
  dispose(): void;
}

export interface StagedSkill extends CopiedTree {
  readonly skill: SourceSkill;
  /** The copy in the staging folder. */
  readonly directory: string;
}

const STAGING_PREFIX = '.skillhost-staging-';

/** Whether a process of this id runs (one of another user counts as running). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the staging folders in `parent` that a process which no longer runs left behind (it was
 * killed before it could clean up); returns their names. A folder's name carries its maker's pid;
 * one of a running process, or of no recognisable pid, is left alone.
 */
export function sweepStaging(parent: string): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = /^\.skillhost-staging-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || processRuns(Number(pid))) continue;
    rmSync(join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Makes a staging folder beside `skillsFolder` (`.skillhost-staging-<pid>-…` in its parent, which
 * is not a skill source: discovery never sees a half-copied skill), after removing what a killed
 * earlier install left there.
 */
export function createStaging(skillsFolder: string): Staging {
  const parent = dirname(skillsFolder);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  sweepStaging(parent);
  const directory = mkdtempSync(join(parent, `${STAGING_PREFIX}${process.pid}-`));
  return {
    directory,
    stage: (skill, limits) => {
      const target = join(directory, skill.name);
      const copied = copySkillFolder(skill.directory, target, limits);
      return { ...copied, skill, directory: target };
    },
    dispose: () => rmSync(directory, { recursive: true, force: true }),
  };
}
