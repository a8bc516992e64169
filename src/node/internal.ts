/**
 * What the CLI and the adapters need of skillhost/node and users do not. Never re-exported by a
 * public entry.
 */
export { isInside } from './fs.js';
export { randomId } from './hash.js';
export {
  type HttpListener,
  type IncomingMessage,
  listenHttp,
  type ServerResponse,
} from './http.js';
export {
  createSessionStore,
  isSessionId,
  readPrivateFile,
  type SessionFileInfo,
  type SessionStore,
} from './session-store.js';
export { loadYaml } from './yaml.js';
