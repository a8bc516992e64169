import {
  defaultSources,
  isProjectTrusted,
  SkillRegistry,
  type SkillSource,
  type Trust,
} from '../node/index.js';
import { type OptionSpecs, type ParsedArgs, UsageError } from './args.js';
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
};

function skillhostHome(deps: CliDeps): string {
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

/** Builds the sources from the command line and the user config, and opens the registry. */
export function openRegistry(args: ParsedArgs, deps: CliDeps): OpenedRegistry {
  const { options } = args;
  const projectDir = deps.resolvePath(deps.cwd, String(options.project ?? '.'));
  const projectReal = deps.fs.realPath(projectDir) ?? projectDir;
  const trustedFolders = deps.readConfig(configFile(deps)).trustedProjects;
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
  const useCache = options.cache !== false;
  const cacheDir =
    options['cache-dir'] === undefined
      ? deps.resolvePath(skillhostHome(deps), 'cache')
      : deps.resolvePath(deps.cwd, String(options['cache-dir']));
  const registry = SkillRegistry.open({
    fs: deps.fs,
    sources,
    hash: deps.hash,
    version: VERSION,
    keepScans: false,
    discovery: { followSymlinks: options['follow-symlinks'] === true },
    ...(useCache ? { cache: deps.cacheStore(cacheDir) } : {}),
  });
  return { registry, projectDir, projectTrusted, sources };
}
