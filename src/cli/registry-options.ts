import { SkillRegistry } from '../internal.js';
import {
  type CacheStore,
  type DiscoveryOptions,
  findProjectRoot,
  isProjectTrusted,
  type SkillSource,
  type SourceFolderState,
  sourceFolders,
  type Trust,
} from '../node/index.js';
import { loadYaml } from '../node/internal.js';
import { type OptionSpecs, type ParsedArgs, UsageError } from './args.js';
import { installedSkillSettings } from './installed.js';
import type { CliDeps } from './io.js';
import { printable } from './printable.js';
import { VERSION } from './version.js';

/** Options every registry command takes. */
export const SOURCE_OPTIONS: OptionSpecs = {
  project: { type: 'string' },
  skills: { type: 'string', multiple: true },
  'untrusted-skills': { type: 'string', multiple: true },
  'default-sources': { type: 'boolean', negatable: true },
  'cache-dir': { type: 'string' },
  cache: { type: 'boolean', negatable: true },
  trust: { type: 'boolean' },
  'follow-symlinks': { type: 'boolean' },
};

/** `--json`, for the commands that print JSON with it (not every registry command does). */
export const JSON_OPTION: OptionSpecs = { json: { type: 'boolean' } };

export function skillhostHome(deps: CliDeps): string {
  const configured = deps.env.SKILLHOST_HOME;
  return configured !== undefined && configured !== ''
    ? configured
    : deps.resolvePath(deps.homeDir, '.skillhost');
}

export function configFile(deps: CliDeps): string {
  return deps.resolvePath(skillhostHome(deps), 'config.json');
}

export interface OpenedRegistry {
  readonly registry: SkillRegistry;
  readonly projectDir: string;
  readonly projectTrusted: boolean;
  readonly sources: readonly SkillSource[];
  readonly settings: SourceSettings;
}

/** How the project folder was chosen: named with --project, found by a marker, or the current folder. */
export interface ProjectChoice {
  readonly foundBy: 'option' | 'marker' | 'cwd';
  /** The marker that made it the project's root (`.git`, `.agents`, ...), when found by one. */
  readonly marker?: string;
}

export interface SourceSettings {
  /** The project folder: --project, else the nearest folder above the current one with a marker. */
  readonly projectDir: string;
  readonly project: ProjectChoice;
  /** The folder scripts get as their workspace by default: --project, else the current folder. */
  readonly workspaceDir: string;
  /** Every standard folder and given folder, with the ones the user config switches off. */
  readonly folders: readonly SourceFolderState[];
  readonly projectTrusted: boolean;
  readonly sources: readonly SkillSource[];
  readonly cache: CacheStore | undefined;
  readonly discovery: DiscoveryOptions;
  /** Skill names switched off, and installed skills of external origin not trusted yet. */
  readonly disabled: readonly string[];
  readonly externalSkills: readonly string[];
}

/** The index cache of the command line (--cache-dir, else $SKILLHOST_HOME/cache; none with --no-cache). */
export function indexCache(args: ParsedArgs, deps: CliDeps): CacheStore | undefined {
  if (args.options.cache === false) return undefined;
  const given = args.options['cache-dir'];
  return deps.cacheStore(
    given === undefined
      ? deps.resolvePath(skillhostHome(deps), 'cache')
      : deps.resolvePath(deps.cwd, String(given)),
  );
}

/** Builds the sources (and cache settings) from the command line and the user config. */
export function sourceSettings(args: ParsedArgs, deps: CliDeps): SourceSettings {
  const { options } = args;
  const { projectDir, project } = chooseProject(args, deps);
  const projectReal = deps.fs.realPath(projectDir) ?? projectDir;
  const config = deps.readConfig(configFile(deps));
  const trustedFolders = config.trustedProjects;
  const projectTrusted = options.trust === true || isProjectTrusted(projectReal, trustedFolders);
  const given = (name: string, trust: Trust) =>
    ((options[name] as readonly string[] | undefined) ?? []).map((folder) => ({
      root: deps.resolvePath(deps.cwd, folder),
      trust,
    }));
  const noDefaults = options['default-sources'] === false;
  const explicit = given('skills', 'trusted');
  const external = given('untrusted-skills', 'untrusted').map((folder) => folder.root);
  if (noDefaults && explicit.length === 0 && external.length === 0) {
    throw new UsageError(
      '--no-default-sources needs at least one --skills or --untrusted-skills folder',
    );
  }
  const folders = sourceFolders({
    projectDir,
    projectTrusted,
    homeDir: deps.homeDir,
    explicit,
    external,
    noDefaults,
    switchedOff: config.disabledSources ?? [],
  });
  const sources = folders.filter((state) => !state.switchedOff).map((state) => state.source);
  return {
    projectDir,
    project,
    workspaceDir:
      options.project === undefined
        ? deps.cwd
        : deps.resolvePath(deps.cwd, String(options.project)),
    folders,
    projectTrusted,
    sources,
    cache: indexCache(args, deps),
    discovery: { followSymlinks: options['follow-symlinks'] === true },
    ...installedSkillSettings(projectDir, config, deps),
  };
}

/**
 * The project folder: --project as given, else the nearest folder at or above the current one
 * that holds `.git`, `.agents`, `.skillhost` or `.claude` (never the home folder or above it),
 * else the current folder.
 */
export function chooseProject(
  args: ParsedArgs,
  deps: CliDeps,
): { readonly projectDir: string; readonly project: ProjectChoice } {
  const given = args.options.project;
  if (given !== undefined)
    return {
      projectDir: deps.resolvePath(deps.cwd, String(given)),
      project: { foundBy: 'option' },
    };
  const found = findProjectRoot(deps.fs, deps.cwd, deps.homeDir);
  return found === undefined
    ? { projectDir: deps.cwd, project: { foundBy: 'cwd' } }
    : { projectDir: found.path, project: { foundBy: 'marker', marker: found.marker } };
}

/**
 * The registry options of the command line's sources (shared by the registry and the runtime),
 * with the YAML library loaded only if some frontmatter needs it.
 */
export function registryOptions(settings: SourceSettings, deps: CliDeps) {
  return {
    fs: deps.fs,
    yaml: loadYaml,
    sources: settings.sources,
    hash: deps.hash,
    version: VERSION,
    keepScans: false,
    discovery: settings.discovery,
    disabled: settings.disabled,
    externalSkills: settings.externalSkills,
    ...(settings.cache === undefined ? {} : { cache: settings.cache }),
  };
}

/** Opens the registry of the command line's sources. */
export function openRegistry(args: ParsedArgs, deps: CliDeps): OpenedRegistry {
  const settings = sourceSettings(args, deps);
  const registry = SkillRegistry.open(registryOptions(settings, deps));

  return {
    registry,
    projectDir: settings.projectDir,
    projectTrusted: settings.projectTrusted,
    sources: settings.sources,
    settings,
  };
}

/** Where the project folder came from, in words. */
export function projectLine(settings: SourceSettings, deps: CliDeps): string {
  const where = printable(settings.projectDir);
  const how =
    settings.project.foundBy === 'option'
      ? 'given with --project'
      : settings.project.foundBy === 'marker'
        ? `the nearest folder with ${settings.project.marker ?? 'a marker'}${settings.projectDir === deps.cwd ? '' : ' above the current one'}`
        : 'the current folder: no .git, .agents, .skillhost or .claude above it';
  return `Project: ${where} (${how}; ${settings.projectTrusted ? 'trusted' : 'not trusted'})`;
}

/** Where the audit log is: --audit-log, else $SKILLHOST_HOME/audit.jsonl. */
export function auditLogPath(args: ParsedArgs, deps: CliDeps): string {
  const given = args.options['audit-log'];
  return given === undefined
    ? deps.resolvePath(skillhostHome(deps), 'audit.jsonl')
    : deps.resolvePath(deps.cwd, String(given));
}
