/**
 * What the CLI and the adapters need of skillhost/node and users do not. Never re-exported by a
 * public entry.
 */
export {
  CLI_PROVIDERS,
  type CliProviderName,
  createCliAgentDriver,
  cursorPrintWarning,
  MCP_SERVER_NAME,
} from './cli-agents.js';
export { isInside } from './fs.js';
export { randomId } from './hash.js';
export {
  type HttpListener,
  type IncomingMessage,
  listenHttp,
  type ServerResponse,
} from './http.js';
export { gitEnvironment } from './install/git.js';
export { moveIntoPlace, removeFolder, writeFileAtomically } from './install/place.js';
export { createStaging, type StagedSkill, type Staging } from './install/stage.js';
export {
  createSessionStore,
  isSessionId,
  readPrivateFile,
  type SessionFileInfo,
  type SessionStore,
} from './session-store.js';
export {
  type FileFacts,
  fileFacts,
  folderUsage,
  probeSystem,
  type SystemFacts,
} from './system-probe.js';
export { loadYaml } from './yaml.js';
