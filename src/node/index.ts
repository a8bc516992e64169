/**
 * skillhost/node — everything that touches the operating system, plus the whole core API, so
 * that Node programs need only this entry. Every export is public API. The functions that parse
 * YAML load the YAML library on first need (most frontmatter is read by the fast scanner
 * without it).
 */
import { bindYaml } from '../internal.js';
import { loadYaml } from './yaml.js';

export * from '../core.js';

export const {
  createSkillRuntime,
  listAgents,
  loadSkill,
  loadSkillDirectory,
  parseAgentManifest,
  parseSkill,
  readAgent,
  readSkillDirectory,
  validateSkillPaths,
} = bindYaml(loadYaml);

export {
  auditLogFiles,
  createJsonlAuditSink,
  pruneAuditLogs,
  readSkillUsage,
  rotateAuditLog,
  rotatedAuditLogs,
} from './audit-files.js';
export {
  DEFAULT_AUDIT_KEEP,
  DEFAULT_AUDIT_MAX_BYTES,
  type JsonlSinkOptions,
  readAuditLogFile,
} from './audit-sink.js';
export { createDirectoryCacheStore } from './cache-store.js';
export {
  loadSkillFromDisk,
  type NodeReadSkillOptions,
  type NodeValidateOptions,
  readSkill,
  validatePaths,
} from './disk.js';
export { createNodeFileSystem, type NodeFileSystemOptions } from './fs.js';
export { sha256 } from './hash.js';
export { type ExtractedArchive, extractArchive } from './install/archive.js';
export { type FetchedSource, type FetchOptions, fetchSkillSource } from './install/fetch.js';
export { type FoundSkills, findSourceSkills, type SourceSkill } from './install/stage.js';
export {
  type CopiedTree,
  copySkillFolder,
  hashSkillFolder,
  type SkippedFile,
  TREE_LIMITS,
  type TreeLimits,
} from './install/tree.js';
export { nodeRuntimeDeps } from './runtime-deps.js';
export { createSandboxRunner, probeBubblewrap, type SandboxOptions } from './sandbox.js';
export {
  buildSkillSetup,
  planSkillSetup,
  type SetupCommand,
  type SkillSetupOptions,
  type SkillSetupPlan,
  type SkillSetupResult,
  type SkillSetupStep,
} from './skill-setup.js';
export { createChokidarWatcher } from './watch.js';
export { createWorkspaceFiles } from './workspace-files.js';
