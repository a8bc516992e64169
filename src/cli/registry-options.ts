import { SkillRegistry } from '../internal.js';
import {
  type CacheStore,
  type DiscoveryOptions,
  defaultSources,
  isProjectTrusted,
  type SkillSource,
  type Trust,
} from '../node/index.js';
import { loadYaml } from '../node/internal.js';
import { type OptionSpecs, type ParsedArgs, UsageError } from './args.js';
import { installedSkillSettings } from './installed.js';
import type { CliDeps } from './io.js';
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
  json: { type: 'boolean' },
  'audit-log': { type: 'string' },
};

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
}

export interface SourceSettings {
  readonly projectDir: string;
  readonly projectTrusted: boolean;
  readonly sources: readonly SkillSource[];
  readonly cache: CacheStore | undefined;
  readonly discovery: DiscoveryOptions;
  /** Skill names switched off, and installed skills of external origin not trusted yet. */
  readonly disabled: readonly string[];
  readonly externalSkills: readonly string[];
}

/** Builds the sources (and cache settings) from the command line and the user config. */
export function sourceSettings(args: ParsedArgs, deps: CliDeps): SourceSettings {
  const { options } = args;
  const projectDir = deps.resolvePath(deps.cwd, String(options.project ?? '.'));
  const projectReal = deps.fs.realPath(projectDir) ?? projectDir;
  const config = deps.readConfig(configFile(deps));
  const trustedFolders = config.trustedProjects;
  const projectTrusted = options.trust === true || isProjectTrusted(projectReal, trustedFolders);
  const folders = (name: string, trust: Trust) =>
    ((options[name] as readonly string[] | undefined) ?? []).map((folder) => ({
      root: deps.resolvePath(deps.cwd, folder),
      trust,
    }));
  const noDefaults = options['default-sources'] === false;
  const explicit = folders('skills', 'trusted');
  const external = folders('untrusted-skills', 'untrusted').map((folder) => folder.root);
  if (noDefaults && explicit.length === 0 && external.length === 0) {
    throw new UsageError(
      '--no-default-sources needs at least one --skills or --untrusted-skills folder',
    );
  }
  const sources = defaultSources({
    projectDir,
    projectTrusted,
    homeDir: deps.homeDir,
    explicit,
    external,
    noDefaults,
  });
  const cacheDir =
    options['cache-dir'] === undefined
      ? deps.resolvePath(skillhostHome(deps), 'cache')
      : deps.resolvePath(deps.cwd, String(options['cache-dir']));
  return {
    projectDir,
    projectTrusted,
    sources,
    cache: options.cache === false ? undefined : deps.cacheStore(cacheDir),
    discovery: { followSymlinks: options['follow-symlinks'] === true },
    ...installedSkillSettings(projectDir, config, deps),
  };
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
  };
}

/** Where the audit log is: --audit-log, else $SKILLHOST_HOME/audit.jsonl. */
export function auditLogPath(args: ParsedArgs, deps: CliDeps): string {
  const given = args.options['audit-log'];
  return given === undefined
    ? deps.resolvePath(skillhostHome(deps), 'audit.jsonl')
    : deps.resolvePath(deps.cwd, String(given));
}
