/**
 * The narrow door of the commands that check files (validate, to-prompt, read-properties): the
 * validator, its walker and the diagnostics, module by module, so that such a command loads
 * neither the registry nor the runtime. Never re-exported by a public entry.
 */
export { describeCode } from './codes.js';
export type { SkillFileSystem } from './deps.js';
export { countBySeverity, type Diagnostic } from './diagnostics.js';
export {
  type AvailableSkillEntry,
  availableSkillXml,
  renderAvailableSkillsXml,
} from './disclosure/available-skills.js';
export { DEFAULT_READ_LIMITS } from './format/limits.js';
export type { YamlSource } from './format/yaml-engine.js';
export {
  type CheckSkillOptions,
  checkSkillDirectory,
  type SkillCheck,
} from './skill-files/check.js';
export { readingWalk } from './skill-files/probe.js';
export { findSkillFileEntry } from './skill-files/skill-file.js';
export {
  type CheckedSkill,
  checkTree,
  type HelperShares,
  type SharedTreeJob,
  type TreeCheckHelper,
  type WalkShare,
  walkShare,
} from './skill-files/tree-check.js';
export {
  type ValidatePathsOptions,
  type ValidationReport,
  validateSkillPaths,
} from './skill-files/validate-paths.js';
export { type FoundSkill, walkSkillTree } from './skill-files/walker.js';
