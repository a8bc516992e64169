import { joinPath } from '../paths.js';

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
}

/** Default collision precedence, highest first: the caller's folders, then the public client guide's order. */
export const DEFAULT_PRECEDENCE: readonly SourceKind[] = [
  'explicit',
  'project',
  'user',
  'external',
];

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
}

/** The folders a project keeps skills in, in precedence order. */
export const PROJECT_SKILL_FOLDERS: readonly string[] = [
  '.agents/skills',
  '.skillhost/skills',
  '.claude/skills',
];
/** The folders a user keeps skills in, in precedence order. */
export const USER_SKILL_FOLDERS: readonly string[] = ['.agents/skills', '.skillhost/skills'];

/**
 * The standard sources for a project and a user, plus the caller's folders. Every path comes
 * from the options: the library never reads the working or home directory itself.
 */
export function defaultSources(options: DefaultSourceOptions): SkillSource[] {
  const sources: SkillSource[] = [];
  const add = (
    kind: SourceKind,
    root: string,
    trust: Trust,
    enabled: boolean,
    suffix: string,
  ): void => {
    const base =
      kind === 'explicit' || kind === 'external'
        ? kind
        : suffix === ''
          ? kind
          : `${kind}-${suffix}`;
    let id = base;
    for (let index = 2; sources.some((source) => source.id === id); index += 1)
      id = `${base}-${index}`;
    sources.push({ id, kind, root, trust, enabled });
  };
  for (const folder of options.explicit ?? []) add('explicit', folder.root, folder.trust, true, '');
  if (options.noDefaults !== true) {
    if (options.projectDir !== undefined) {
      const trusted = options.projectTrusted === true;
      for (const folder of PROJECT_SKILL_FOLDERS) {
        add(
          'project',
          joinPath(options.projectDir, folder),
          trusted ? 'trusted' : 'untrusted',
          trusted,
          folderSuffix(folder),
        );
      }
    }
    if (options.homeDir !== undefined) {
      for (const folder of USER_SKILL_FOLDERS) {
        add('user', joinPath(options.homeDir, folder), 'trusted', true, folderSuffix(folder));
      }
    }
  }
  for (const root of options.external ?? []) add('external', root, 'untrusted', true, '');
  return sources;
}

function folderSuffix(folder: string): string {
  return folder === '.agents/skills' ? '' : (folder.split('/')[0] as string).replace(/^\./, '');
}

/** True when `projectDir` is one of the trusted folders or lies below one (real paths). */
export function isProjectTrusted(projectDir: string, trustedFolders: readonly string[]): boolean {
  return trustedFolders.some(
    (folder) =>
      projectDir === folder || projectDir.startsWith(folder.endsWith('/') ? folder : `${folder}/`),
  );
}
