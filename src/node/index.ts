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

export { createJsonlAuditSink, type JsonlSinkOptions, readAuditLogFile } from './audit-sink.js';
export { createDirectoryCacheStore } from './cache-store.js';
export {
  loadSkillFromDisk,
  type NodeReadSkillOptions,
  type NodeValidateOptions,
  readSkill,
  validatePaths,
} from './disk.js';
export { createNodeFileSystem } from './fs.js';
export { sha256 } from './hash.js';
export { nodeRuntimeDeps } from './runtime-deps.js';
export { createSandboxRunner, probeBubblewrap, type SandboxOptions } from './sandbox.js';
export { createChokidarWatcher } from './watch.js';
export { createWorkspaceFiles } from './workspace-files.js';
