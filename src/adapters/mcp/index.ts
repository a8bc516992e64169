/**
 * skillhost/mcp — a skillhost runtime as an MCP server: the runtime's tools, each skill's files
 * as `skill://` resources, each skill as a prompt, the catalog as the instructions, and the MCP
 * skills extension; over stdio or Streamable HTTP. Every request goes through the runtime, so
 * its policy, bounds and audit trail apply as they do everywhere else.
 */

export { type HttpServing, normaliseOrigin, type ServeHttpOptions, serveHttp } from './http.js';
export {
  createMcpServer,
  type McpServerOptions,
  RESULT_META,
  toCallToolResult,
} from './server.js';
export {
  type ServeStdioOptions,
  type StartState,
  type StdioServing,
  serveStdio,
} from './stdio.js';
export { parseSkillUri, SKILL_SCHEME, type SkillUri, skillUri } from './uris.js';
