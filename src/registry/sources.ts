import type { SkillFileSystem } from '../deps.js';
import { joinPath, parentPath } from '../paths.js';

/**
 * Where skills come from. `project`: the repository being worked on (loaded once the folder is
 * trusted); `user`: the user's own skills; `explicit`: folders the caller names, with a trust it
 * states; `external`: anything installed from elsewhere, always untrusted.
 */
export type SourceKind = 'project' | 'user' | 'explicit' | 'external';

export type Trust = 'trusted' | 'untrusted';

export interface SkillSource {
  /** Unique among the sources of one registry; used in `name@id` addresses. */
  readonly id: string;
  readonly kind: SourceKind;
  /** Absolute path of the folder that holds skill directories. */
  readonly root: string;
  readonly trust: Trust;
  /**
   * False for a project source whose folder is not trusted yet: its skills are listed as
   * `untrusted` and left out of the catalog.
   */
  readonly enabled: boolean;
  /** Whose folder this is, for people: e.g. "Claude Code (user)". */
  readonly label?: string;
}

/** Default collision precedence, highest first: the caller's folders, then the public client guide's order. */
export const DEFAULT_PRECEDENCE: readonly SourceKind[] = [
  'explicit',
  'project',
  'user',
  'external',
];

/** A folder where an agent tool keeps skills, under the project or the home folder. */
export interface SkillFolder {
  /** The source's id: stable, what a user config switches off. */
  readonly id: string;
  readonly kind: 'project' | 'user';
  /** Relative to the project folder or the home folder. */
  readonly folder: string;
  /** The tool that reads this folder. */
  readonly tool: string;
}

/**
 * Every folder the standard sources search, in precedence order within a kind: the Agent Skills
 * folders first, then skillhost's own, then those of the agent tools people keep skills for.
 */
export const SKILL_FOLDERS: readonly SkillFolder[] = [
  { id: 'project', kind: 'project', folder: '.agents/skills', tool: 'Agent Skills' },
  { id: 'project-skillhost', kind: 'project', folder: '.skillhost/skills', tool: 'skillhost' },
  { id: 'project-claude', kind: 'project', folder: '.claude/skills', tool: 'Claude Code' },
  { id: 'project-github', kind: 'project', folder: '.github/skills', tool: 'GitHub Copilot' },
  { id: 'project-gemini', kind: 'project', folder: '.gemini/skills', tool: 'Gemini CLI' },
  { id: 'user', kind: 'user', folder: '.agents/skills', tool: 'Agent Skills' },
  { id: 'user-skillhost', kind: 'user', folder: '.skillhost/skills', tool: 'skillhost' },
  { id: 'user-claude', kind: 'user', folder: '.claude/skills', tool: 'Claude Code' },
  { id: 'user-copilot', kind: 'user', folder: '.copilot/skills', tool: 'GitHub Copilot' },
  { id: 'user-gemini', kind: 'user', folder: '.gemini/skills', tool: 'Gemini CLI' },
  { id: 'user-codex', kind: 'user', folder: '.codex/skills', tool: 'Codex' },
];

/** The folders a project keeps skills in, in precedence order. */
export const PROJECT_SKILL_FOLDERS: readonly string[] = SKILL_FOLDERS.filter(
  (folder) => folder.kind === 'project',
).map((folder) => folder.folder);
/** The folders a user keeps skills in, in precedence order. */
export const USER_SKILL_FOLDERS: readonly string[] = SKILL_FOLDERS.filter(
  (folder) => folder.kind === 'user',
).map((folder) => folder.folder);

export interface DefaultSourceOptions {
  /** The project folder (absolute). */
  readonly projectDir?: string;
  /** Whether the project folder is trusted (see `isProjectTrusted`). */
  readonly projectTrusted?: boolean;
  /** The user's home folder (absolute). */
  readonly homeDir?: string;
  /** Folders given by the caller, with their trust. */
  readonly explicit?: ReadonlyArray<{ readonly root: string; readonly trust: Trust }>;
  /** Folders of untrusted, externally installed skills. */
  readonly external?: readonly string[];
  /** Leave out the project and user folders; use only `explicit` and `external`. */
  readonly noDefaults?: boolean;
  /** Ids of standard folders (`SKILL_FOLDERS`) switched off: not searched at all. */
  readonly switchedOff?: readonly string[];
}

/** A source of `sourceFolders`, with whether the user switched it off. */
export interface SourceFolderState {
  readonly source: SkillSource;
  /** True when the id is in `switchedOff`: the folder is not searched. */
  readonly switchedOff: boolean;
}

/**
 * Every source the options describe, switched off or not, in precedence order (what `list
 * --sources` and `doctor` show). `defaultSources` is the same list without the switched-off ones.
 */
export function sourceFolders(options: DefaultSourceOptions): SourceFolderState[] {
  const states: SourceFolderState[] = [];
  const taken = new Set<string>();
  const off = new Set(options.switchedOff ?? []);
  const add = (source: Omit<SkillSource, 'id'>, base: string, switchedOff = false): void => {
    let id = base;
    for (let index = 2; taken.has(id); index += 1) id = `${base}-${index}`;
    taken.add(id);
    states.push({ source: { id, ...source }, switchedOff });
  };
  for (const folder of options.explicit ?? [])
    add(
      { kind: 'explicit', root: folder.root, trust: folder.trust, enabled: true, label: 'given' },
      'explicit',
    );
  if (options.noDefaults !== true) {
    const trusted = options.projectTrusted === true;
    for (const folder of SKILL_FOLDERS) {
      const base = folder.kind === 'project' ? options.projectDir : options.homeDir;
      if (base === undefined) continue;
      const project = folder.kind === 'project';
      add(
        {
          kind: folder.kind,
          root: joinPath(base, folder.folder),
          trust: project && !trusted ? 'untrusted' : 'trusted',
          enabled: !project || trusted,
          label: `${folder.tool} (${folder.kind})`,
        },
        folder.id,
        off.has(folder.id),
      );
    }
  }
  for (const root of options.external ?? [])
    add(
      { kind: 'external', root, trust: 'untrusted', enabled: true, label: 'installed' },
      'external',
    );
  return states;
}

/**
 * The standard sources for a project and a user, plus the caller's folders, without those
 * switched off. Every path comes from the options: the library never reads the working or home
 * directory itself.
 */
export function defaultSources(options: DefaultSourceOptions): SkillSource[] {
  return sourceFolders(options)
    .filter((state) => !state.switchedOff)
    .map((state) => state.source);
}

/** What marks a project's root folder, nearest first (as the agent tools look for it). */
export const PROJECT_MARKERS: readonly string[] = ['.git', '.agents', '.skillhost', '.claude'];

/** Where a project's root was found, and by which marker. */
export interface ProjectRoot {
  readonly path: string;
  /** The marker found there (`.git`, `.agents`, `.skillhost` or `.claude`). */
  readonly marker: string;
}

/**
 * The project a folder belongs to: the nearest folder at or above `start` holding one of
 * `PROJECT_MARKERS`. The home folder and the folders above it are never a project (the home's
 * `.claude` and `.agents` hold the user's own skills), so the search stops below `homeDir`.
 * Undefined when no folder qualifies.
 *
 * @example findProjectRoot(fs, '/work/repo/src/deep', '/home/me') // { path: '/work/repo', marker: '.git' }
 */
export function findProjectRoot(
  fs: Pick<SkillFileSystem, 'status'>,
  start: string,
  homeDir?: string,
): ProjectRoot | undefined {
  const home = homeDir === undefined ? undefined : homeDir.replace(/\/+$/, '') || '/';
  let folder = start;
  // Bounded by the path's depth; the count only guards against a path that never shortens.
  for (let depth = 0; depth < 4096; depth += 1) {
    if (folder === home) return undefined;
    for (const marker of PROJECT_MARKERS)
      if (fs.status(joinPath(folder, marker), false) !== undefined) return { path: folder, marker };
    const parent = parentPath(folder);
    if (parent === folder || parent === '.') return undefined;
    folder = parent;
  }
  return undefined;
}

/** True when `projectDir` is one of the trusted folders or lies below one (real paths). */
export function isProjectTrusted(projectDir: string, trustedFolders: readonly string[]): boolean {
  return trustedFolders.some(
    (folder) =>
      projectDir === folder || projectDir.startsWith(folder.endsWith('/') ? folder : `${folder}/`),
  );
}
