import { writeFakeAgent } from './cli-turns.js';

/**
 * A fake `claude` for the unit suite: a small node script, written at test time, that speaks
 * Claude Code's stream-json control protocol from a scenario and records what it was given (its
 * argv, every line of its input, the files its flags name) so tests can check them.
 *
 * Scenario: `initialize` ('ok' | 'error' | 'never'), `beforeInit` (messages written before the
 * initialize answer), and `turns`: for each user message in turn, a list of actions:
 * - `{ write: MESSAGE }` one line of output; `{ raw: TEXT }` a line as it is;
 * - `{ ask: { id, tool, input, toolUseId? } }` a `can_use_tool` question; its answer is recorded;
 * - `{ await: ID }` waits until the answer to `ID` arrived (or the input closed);
 * - `{ cancel: ID }` a `control_cancel_request` for `ID`;
 * - `{ sleep: MS }`; `{ exit: CODE }`; `{ stderr: TEXT }`;
 * - `{ hook: { id, source } }` a SessionStart `hook_callback` (its answer recorded);
 * - `{ preTool: { id, tool, input, toolUseId? } }` a PreToolUse `hook_callback`;
 * - `{ stubborn: true }` ignore SIGTERM and start a child (same group) that ignores it too.
 * - `{ mcp: { calls: [{ tool, args }], noAuth? } }` calls tools of the MCP server its
 *   --mcp-config names (Streamable HTTP, one client session; `noAuth`: without its headers);
 *   the statuses and results are recorded in `mcp`.
 * After the input closes the fake exits 0 unless `exitOnClose` says otherwise (or `stubborn`).
 */

export interface FakeScenario {
  readonly initialize?: 'ok' | 'error' | 'never';
  readonly beforeInit?: readonly unknown[];
  readonly turns?: ReadonlyArray<readonly unknown[]>;
  readonly exitOnClose?: number;
  readonly version?: string;
}

export interface FakeRecord {
  readonly argv: string[];
  readonly env: Record<string, string>;
  /** Every line of input, parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: protocol messages are arbitrary JSON.
  readonly input: any[];
  /** Files named by --mcp-config= and --*system-prompt-file=, as the fake read them, and their modes. */
  readonly files: Record<string, { text: string; mode: number }>;
  readonly childPid?: number;
  readonly pid: number;
  /** What each `mcp` action got: the HTTP status of initialize, then each call's result. */
  // biome-ignore lint/suspicious/noExplicitAny: MCP results are arbitrary JSON.
  readonly mcp?: Array<{ status: number; results: any[] }>;
}

const SCRIPT = String.raw`
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const scenario = JSON.parse(fs.readFileSync(process.env.FAKE_SCENARIO, 'utf8'));
const recordFile = process.env.FAKE_RECORD;
const record = { argv: process.argv.slice(2), env: { ...process.env }, input: [], files: {}, pid: process.pid };
const save = () => fs.writeFileSync(recordFile, JSON.stringify(record));
if (record.argv.includes('--version')) { process.stdout.write((scenario.version ?? '2.1.332') + ' (Claude Code)\n'); process.exit(0); }
for (const arg of record.argv) {
  const m = /^--(mcp-config|system-prompt-file|append-system-prompt-file)=(.*)$/.exec(arg);
  if (m) { try { record.files[m[1]] = { text: fs.readFileSync(m[2], 'utf8'), mode: fs.statSync(m[2]).mode & 0o777, path: m[2] }; } catch (e) { record.files[m[1]] = { text: 'UNREADABLE ' + e.message, mode: 0 }; } }
}
save();
const out = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const answers = new Map();
const waiters = new Map();
let closed = false;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function mcp(action) {
  const arg = record.argv.find((a) => a.startsWith('--mcp-config='));
  const server = JSON.parse(fs.readFileSync(arg.slice('--mcp-config='.length), 'utf8')).mcpServers.skillhost;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(action.noAuth ? {} : server.headers) };
  const post = async (body, session) => {
    const response = await fetch(server.url, { method: 'POST', headers: session ? { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : headers, body: JSON.stringify(body) });
    const text = await response.text();
    const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).pop() ?? text;
    let json = null; try { json = JSON.parse(data); } catch {}
    return { status: response.status, session: response.headers.get('mcp-session-id'), json };
  };
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fake-claude', version: '1' } } });
  const done = { status: init.status, results: [] };
  if (init.status === 200) {
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
    let id = 2;
    for (const call of action.calls ?? []) {
      const answer = await post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: call.tool, arguments: call.args } }, init.session);
      done.results.push(answer.json && answer.json.result);
    }
  }
  record.mcp = [...(record.mcp ?? []), done]; save();
}
async function act(actions) {
  for (const a of actions) {
    if (a.write) out(a.write);
    else if (a.raw !== undefined) process.stdout.write(a.raw + '\n');
    else if (a.ask) out({ type: 'control_request', request_id: a.ask.id, request: { subtype: 'can_use_tool', tool_name: a.ask.tool, input: a.ask.input, tool_use_id: a.ask.toolUseId ?? null, permission_suggestions: [] } });
    else if (a.hook) out({ type: 'control_request', request_id: a.hook.id, request: { subtype: 'hook_callback', callback_id: a.hook.callback ?? 'skillhost_session_start', input: { hook_event_name: 'SessionStart', source: a.hook.source } } });
    else if (a.preTool) out({ type: 'control_request', request_id: a.preTool.id, request: { subtype: 'hook_callback', callback_id: 'skillhost_pre_tool_use', input: { hook_event_name: 'PreToolUse', tool_name: a.preTool.tool, tool_input: a.preTool.input, tool_use_id: a.preTool.toolUseId ?? null }, tool_use_id: a.preTool.toolUseId ?? null } });
    else if (a.other) out({ type: 'control_request', request_id: a.other.id, request: { subtype: a.other.subtype } });
    else if (a.await) { if (!answers.has(a.await) && !closed) await new Promise((r) => waiters.set(a.await, r)); }
    else if (a.cancel) out({ type: 'control_cancel_request', request_id: a.cancel });
    else if (a.sleep) await sleep(a.sleep);
    else if (a.stderr) process.stderr.write(a.stderr);
    else if (a.mcp) await mcp(a.mcp);
    else if (a.exit !== undefined) { save(); process.exit(a.exit); }
    else if (a.stubborn) {
      process.on('SIGTERM', () => {});
      const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
      record.childPid = child.pid; save();
      scenario.stubborn = true;
    }
  }
}
let turn = 0;
let queue = Promise.resolve();
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, i); buffer = buffer.slice(i + 1);
    let message; try { message = JSON.parse(line); } catch { message = { unparsed: line }; }
    record.input.push(message); save();
    if (message.type === 'control_request' && message.request && message.request.subtype === 'initialize') {
      queue = queue.then(async () => {
        await act(scenario.beforeInit ?? []);
        if (scenario.initialize === 'never') return;
        if (scenario.initialize === 'error') out({ type: 'control_response', response: { subtype: 'error', request_id: message.request_id, error: 'no such thing' } });
        else out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: { commands: [] } } });
      });
    } else if (message.type === 'control_response') {
      const id = message.response && message.response.request_id;
      answers.set(id, message); const w = waiters.get(id); if (w) { waiters.delete(id); w(); }
    } else if (message.type === 'user') {
      const actions = (scenario.turns ?? [])[turn++] ?? [];
      queue = queue.then(() => act(actions));
    }
  }
});
process.stdin.on('end', () => {
  closed = true;
  for (const w of waiters.values()) w();
  queue.then(() => { save(); if (!scenario.stubborn) process.exit(scenario.exitOnClose ?? 0); });
});
`;

/** Writes the fake and its scenario; answers the command to run it and a reader of its record. */
export function fakeClaude(scenario: FakeScenario) {
  return writeFakeAgent<FakeRecord>('claude.cjs', SCRIPT, scenario);
}

/** Claude Code's messages, as the fake writes them. */
export const claudeMessages = {
  init: (extra: Record<string, unknown> = {}) => ({
    type: 'system',
    subtype: 'init',
    session_id: 'session-1',
    model: 'claude-test-1',
    claude_code_version: '2.1.332',
    tools: ['Bash', 'Read', 'mcp__skillhost__skillhost_activate'],
    ...extra,
  }),
  delta: (text: string) => ({
    type: 'stream_event',
    event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    parent_tool_use_id: null,
  }),
  messageStart: (id: string) => ({
    type: 'stream_event',
    event: { type: 'message_start', message: { id, model: 'claude-test-1' } },
    parent_tool_use_id: null,
  }),
  assistant: (id: string, content: unknown[]) => ({
    type: 'assistant',
    message: { id, model: 'claude-test-1', role: 'assistant', content },
    parent_tool_use_id: null,
  }),
  toolResult: (id: string, text: string, isError = false, extra: Record<string, unknown> = {}) => ({
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: isError }],
    },
    parent_tool_use_id: null,
    ...extra,
  }),
  result: (extra: Record<string, unknown> = {}) => ({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'Done.',
    stop_reason: 'end_turn',
    session_id: 'session-1',
    total_cost_usd: 0.01,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 2,
      cache_creation_input_tokens: 1,
    },
    ...extra,
  }),
};
