import { hasDifferences } from '../internal.js';
import {
  compareFiles,
  type Diagnostic,
  emptyLockfile,
  hashSkillFolder,
  type InstallSource,
  isExternalSource,
  LOCKFILE_NAME,
  type LockedSkill,
  type Lockfile,
  parseLockfile,
  treeDigest,
} from '../node/index.js';
import { UsageError } from './args.js';
import type { CliDeps, UserConfig } from './io.js';
import { skillhostHome, sourceSettings } from './registry-options.js';

/** Where skills are installed and recorded: a project's, or the user's. */
export interface InstallScope {
  readonly kind: 'project' | 'user';
  /** `<project>/.agents/skills` or `~/.agents/skills`. */
  readonly skillsFolder: string;
  /** `<project>/skills-lock.json` or `$SKILLHOST_HOME/skills-lock.json`. */
  readonly lockfile: string;
}

export function projectScope(projectDir: string, deps: CliDeps): InstallScope {
  return {
    kind: 'project',
    skillsFolder: deps.resolvePath(projectDir, '.agents/skills'),
    lockfile: deps.resolvePath(projectDir, LOCKFILE_NAME),
  };
}

export function userScope(deps: CliDeps): InstallScope {
  return {
    kind: 'user',
    skillsFolder: deps.resolvePath(deps.homeDir, '.agents/skills'),
    lockfile: deps.resolvePath(skillhostHome(deps), LOCKFILE_NAME),
  };
}

export interface ReadLock {
  /** The valid entries; empty when there is no lockfile. */
  readonly lockfile: Lockfile;
  /** Whether the file exists. */
  readonly exists: boolean;
  /** False when the file exists but cannot be used at all (not JSON, unknown version). */
  readonly usable: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads a scope's lockfile; a missing one is empty. */
export function readLock(scope: InstallScope, deps: CliDeps): ReadLock {
  const text = deps.readText(scope.lockfile);
  if (text === '')
    return { lockfile: emptyLockfile(), exists: false, usable: true, diagnostics: [] };
  const parsed = parseLockfile(text, scope.lockfile);
  return {
    lockfile: parsed.lockfile ?? emptyLockfile(),
    exists: true,
    usable: parsed.lockfile !== undefined,
    diagnostics: parsed.diagnostics,
  };
}

/** The folder an installed skill lives in. */
export function skillFolder(scope: InstallScope, name: string, deps: CliDeps): string {
  return deps.resolvePath(scope.skillsFolder, name);
}

/** Whether the user trusts this installed skill as its lockfile entry records it. */
export function isSkillTrusted(
  config: UserConfig,
  directory: string,
  entry: LockedSkill,
  deps: CliDeps,
): boolean {
  const digest = treeDigest(entry.files, deps.hash);
  const real = deps.fs.realPath(directory) ?? directory;
  return (config.trustedSkills ?? []).some(
    (trusted) =>
      (trusted.directory === directory || trusted.directory === real) &&
      trusted.contentHash === digest,
  );
}

/**
 * What the registry needs to know of installed skills: the names switched off, and the skills
 * from sources outside the user's control that the user has not trusted (every skill of a
 * scope whose lockfile cannot be read: failing closed).
 */
export function installedSkillSettings(
  projectDir: string,
  config: UserConfig,
  deps: CliDeps,
): { readonly disabled: readonly string[]; readonly externalSkills: readonly string[] } {
  const externalSkills: string[] = [];
  for (const scope of [projectScope(projectDir, deps), userScope(deps)]) {
    const read = readLock(scope, deps);
    if (!read.usable) {
      externalSkills.push(scope.skillsFolder);
      continue;
    }
    for (const [name, entry] of Object.entries(read.lockfile.skills)) {
      if (!isExternalSource(entry.source)) continue;
      const directory = skillFolder(scope, name, deps);
      if (!isSkillTrusted(config, directory, entry, deps)) externalSkills.push(directory);
    }
  }
  return { disabled: config.disabledSkills ?? [], externalSkills };
}

/** The project folder as every command finds it, and whether it is trusted. */
export function projectContext(deps: CliDeps): {
  readonly projectDir: string;
  readonly projectTrusted: boolean;
} {
  const settings = sourceSettings({ options: {}, positionals: [], rest: [] }, deps);
  return { projectDir: settings.projectDir, projectTrusted: settings.projectTrusted };
}

/** Whether a folder looks like a project: it holds .git, .agents or a lockfile. */
export function looksLikeProject(projectDir: string, deps: CliDeps): boolean {
  return ['.git', '.agents', LOCKFILE_NAME].some(
    (name) => deps.fs.status(deps.resolvePath(projectDir, name), false) !== undefined,
  );
}

/**
 * The scope a command works on: `--user`, `--project`, or by default the project when the
 * current folder is one (else a usage error asking for one of the two).
 */
export function chooseScope(
  options: { readonly user?: unknown; readonly project?: unknown },
  deps: CliDeps,
  command: string,
): { readonly scope: InstallScope; readonly projectDir: string; readonly projectTrusted: boolean } {
  if (options.user === true && options.project === true)
    throw new UsageError('--user and --project cannot be given together');
  const { projectDir, projectTrusted } = projectContext(deps);
  if (options.user === true) return { scope: userScope(deps), projectDir, projectTrusted };
  if (options.project !== true && !looksLikeProject(projectDir, deps))
    throw new UsageError(
      `${projectDir} does not look like a project (no .git, .agents or ${LOCKFILE_NAME}): pass --project to ${command} here, or --user for your own skills (~/.agents/skills)`,
    );
  return { scope: projectScope(projectDir, deps), projectDir, projectTrusted };
}

/** An installed skill found by name: the project's lockfile first, then the user's. */
export function findInstalled(
  name: string,
  deps: CliDeps,
  only?: 'project' | 'user',
):
  | { readonly scope: InstallScope; readonly directory: string; readonly entry: LockedSkill }
  | undefined {
  const { projectDir } = projectContext(deps);
  const scopes = [projectScope(projectDir, deps), userScope(deps)].filter(
    (scope) => only === undefined || scope.kind === only,
  );
  for (const scope of scopes) {
    const entry = readLock(scope, deps).lockfile.skills[name];
    if (entry !== undefined) return { scope, directory: skillFolder(scope, name, deps), entry };
  }
  return undefined;
}

/**
 * A folder source as the lockfile records it: relative to the lockfile's folder when it lies
 * below it (so a project's lockfile works in every clone), else absolute.
 */
export function recordedFolder(path: string, scope: InstallScope, deps: CliDeps): string {
  const base = deps.resolvePath(scope.lockfile, '..');
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

/** A recorded source made usable here: a relative folder resolved against the lockfile's folder. */
export function resolveRecorded(
  source: InstallSource,
  scope: InstallScope,
  deps: CliDeps,
): InstallSource {
  return source.type === 'folder'
    ? {
        type: 'folder',
        path: deps.resolvePath(deps.resolvePath(scope.lockfile, '..'), source.path),
      }
    : source;
}

/**
 * For each installed skill whose folder exists, whether its files are as skills-lock.json
 * records them (`locked`) or not (`modified`), by folder.
 */
export function lockStates(projectDir: string, deps: CliDeps): Map<string, 'locked' | 'modified'> {
  const states = new Map<string, 'locked' | 'modified'>();
  for (const scope of [projectScope(projectDir, deps), userScope(deps)]) {
    for (const [name, entry] of Object.entries(readLock(scope, deps).lockfile.skills)) {
      const directory = skillFolder(scope, name, deps);
      const files = hashSkillFolder(directory);
      if (files !== undefined)
        states.set(
          directory,
          hasDifferences(compareFiles(entry.files, files)) ? 'modified' : 'locked',
        );
    }
  }
  return states;
}
