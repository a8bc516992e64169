/**
 * What the public entries need and users do not: never re-exported as such. `bindYaml` gives
 * each entry the functions that parse with its own YAML source as the default, so that neither
 * the core nor the entries keep a global.
 */
import {
  SkillRegistry as CoreSkillRegistry,
  checkSkillDirectory,
  createSkillRuntime,
  listAgents,
  loadSkill,
  loadSkillDirectory,
  parseAgentManifest,
  parseSkill,
  type RegistryOptions,
  readAgent,
  readSkillDirectory,
  readSkillFile,
  readSkillRecord,
  scanSource,
  validateSkillPaths,
  type YamlSource,
} from './core.js';

/**
 * The core's parsing functions with `yaml` as their default YAML source (an explicit `yaml`
 * option still wins): the `skillhost` entry binds the `yaml` package, `skillhost/node` a loader.
 */
export function bindYaml(yaml: YamlSource) {
  const withYaml = <T extends { readonly yaml?: YamlSource }>(options: T | undefined): T =>
    (options?.yaml === undefined ? { ...options, yaml } : options) as T;

  /** The registry, opened with this entry's YAML source unless the options name one. */
  class SkillRegistry extends CoreSkillRegistry {
    static override open(options: RegistryOptions): CoreSkillRegistry {
      // Opened as this class, so that what it opens is an instance of it (instanceof holds).
      return CoreSkillRegistry.open.call(SkillRegistry, withYaml(options));
    }
  }

  return {
    parseSkill: ((text, location, options) =>
      parseSkill(text, location, withYaml(options))) as typeof parseSkill,
    loadSkill: ((text, location, options) =>
      loadSkill(text, location, withYaml(options))) as typeof loadSkill,
    parseAgentManifest: ((source, file, directoryName, options) =>
      parseAgentManifest(
        source,
        file,
        directoryName,
        withYaml(options),
      )) as typeof parseAgentManifest,
    readSkillFile: ((fs, skill, options) =>
      readSkillFile(fs, skill, withYaml(options))) as typeof readSkillFile,
    checkSkillDirectory: ((fs, skill, options) =>
      checkSkillDirectory(fs, skill, withYaml(options))) as typeof checkSkillDirectory,
    readSkillDirectory: ((fs, directory, options) =>
      readSkillDirectory(fs, directory, withYaml(options))) as typeof readSkillDirectory,
    loadSkillDirectory: ((fs, directory, options) =>
      loadSkillDirectory(fs, directory, withYaml(options))) as typeof loadSkillDirectory,
    readSkillRecord: ((fs, found, context) =>
      readSkillRecord(fs, found, withYaml(context))) as typeof readSkillRecord,
    scanSource: ((fs, source, options, context) =>
      scanSource(fs, source, options, withYaml(context))) as typeof scanSource,
    validateSkillPaths: ((paths, options) =>
      validateSkillPaths(paths, withYaml(options))) as typeof validateSkillPaths,
    readAgent: ((fs, bases, name, options) =>
      readAgent(fs, bases, name, withYaml(options))) as typeof readAgent,
    listAgents: ((fs, bases, options) =>
      listAgents(fs, bases, withYaml(options))) as typeof listAgents,
    createSkillRuntime: ((options) =>
      createSkillRuntime({
        ...options,
        deps: withYaml(options.deps),
      })) as typeof createSkillRuntime,
    SkillRegistry: SkillRegistry as typeof CoreSkillRegistry,
  };
}
