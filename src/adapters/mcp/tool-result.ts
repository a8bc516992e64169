import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolCallResult } from '../../node/index.js';

/** The `_meta` key of a tool result's data (the runtime's metadata, for applications). */
export const RESULT_META = 'skillhost/result';

/**
 * A runtime tool result as MCP sends it: the text is the whole result, with no
 * `structuredContent` and no `outputSchema`. Clients that find structured content send the model
 * its JSON instead of the text (Claude Code, Codex), and the MCP specification makes it the
 * result, so anything less than the payload there (the skill body, the file, the script's output)
 * would never reach the model; the payload as JSON would reach it as escaped text. The runtime's
 * metadata (directory, file list, exit code, content hash, error code) is for applications, not
 * the model: it rides in `_meta` under `skillhost/result`, which clients do not show the model.
 */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  const data =
    result.data === undefined && result.code === undefined
      ? undefined
      : { ...result.data, ...(result.code === undefined ? {} : { code: result.code }) };
  return {
    content: [{ type: 'text', text: result.text }],
    ...(data === undefined ? {} : { _meta: { [RESULT_META]: data } }),
    isError: result.isError,
  };
}
