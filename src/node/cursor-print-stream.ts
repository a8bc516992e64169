import { canonicalTool, type PolicyConfig, parseAllowedTools } from '../core.js';
import { type CliFailure, type LoopEvent, ZERO_USAGE } from '../internal.js';
import { classifyAcpFailure } from './acp-stream.js';
import { toolResultEvent } from './cli-session.js';
import { type Json, object, string } from './json-fields.js';

/**
 * Cursor's print mode (`agent -p --output-format stream-json`), read as the loop's events, and
 * the settings a session gives it. Print mode cannot ask for permission: what Cursor does is
 * bounded by its own permission settings, which skillhost writes from the policy (deny rules
 * broadened, never narrowed; no allow entry for a shell command).
 */

/**
 * Cursor's `cli-config.json` for one session: its permissions from the policy. Denied: every
 * deny rule, a command's as its program (`Shell(git)` for `Bash(git push:*)`: broader, never
 * narrower), a path's as `Read(...)` / `Write(...)`, a tool denied outright as every use of it.
 * Allowed: reads, when the policy has the read tool and denies no read outright; never a shell
 * command or a write.
 */
export function cursorPrintConfig(policy: PolicyConfig): string {
  const deny = new Set<string>();
  const denied = new Set<string>();
  for (const [tool, decision] of Object.entries(policy.defaults ?? {}))
    if (decision === 'deny') denied.add(canonicalTool(tool) ?? tool);
  for (const grant of parseAllowedTools((policy.deny ?? []).join(' ')).grants) {
    const program = grant.command?.argv[0];
    if (grant.tools.includes('bash') && program !== undefined) deny.add(`Shell(${program})`);
    else if (grant.path !== undefined) {
      if (grant.tools.includes('read')) deny.add(`Read(${grant.path})`);
      if (grant.tools.some((tool) => tool === 'write' || tool === 'edit'))
        deny.add(`Write(${grant.path})`);
    } else if (grant.command === undefined) for (const tool of grant.tools) denied.add(tool);
  }
  const tools = new Set(policy.tools);
  if (denied.has('bash') || !tools.has('bash')) deny.add('Shell(*)');
  if (denied.has('read') || !tools.has('read')) deny.add('Read(**)');
  if (denied.has('write') || denied.has('edit') || !(tools.has('write') || tools.has('edit')))
    deny.add('Write(**)');
  const allow = deny.has('Read(**)') ? [] : ['Read(**)'];
  const config = {
    version: 1,
    editor: { vimMode: false },
    permissions: { allow, deny: [...deny].sort() },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Cursor's name of a tool call (`shellToolCall` → `shell`, an MCP call → its tool's name). */
function callOf(toolCall: Json): { name: string; input: unknown; result: unknown } {
  const [key, value] = Object.entries(toolCall)[0] ?? ['tool', {}];
  const body = object(value) ?? {};
  const args = object(body.args) ?? {};
  const mcpName = string(args.toolName) ?? string(args.name);
  const name =
    key === 'mcpToolCall' && mcpName !== undefined ? mcpName : key.replace(/ToolCall$/, '');
  const input = key === 'mcpToolCall' ? (args.args ?? args) : args;
  return { name, input, result: body.result };
}

function resultText(result: unknown): { isError: boolean; text: string } {
  const outcome = object(result) ?? {};
  const success = outcome.success;
  const isError = success === undefined;
  const payload = isError
    ? (outcome.error ?? outcome.failure ?? outcome.rejected ?? result)
    : success;
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload ?? '');
  return { isError, text };
}

export class CursorPrintReader {
  readonly #provider: string;
  readonly #loginHint: string;
  #started = false;
  #step = 0;
  #turnSteps = 0;
  #lastText = '';
  #sessionId: string | undefined;
  #model: string | undefined;
  #ended = false;
  readonly #calls = new Set<string>();

  constructor(provider: string, loginHint: string) {
    this.#provider = provider;
    this.#loginHint = loginHint;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get model(): string | undefined {
    return this.#model;
  }

  /** Whether the turn's `result` came. */
  get ended(): boolean {
    return this.#ended;
  }

  beginTurn(): void {
    this.#turnSteps = 0;
    this.#lastText = '';
    this.#ended = false;
  }

  /** The events one line of Cursor's output stands for. */
  read(message: Json): LoopEvent[] {
    switch (message.type) {
      case 'system': {
        this.#sessionId = string(message.session_id) ?? this.#sessionId;
        this.#model = string(message.model) ?? this.#model;
        if (this.#started) return [];
        this.#started = true;
        return [
          {
            type: 'start',
            provider: this.#provider,
            model: this.#model ?? '',
            fallback: null,
            tools: [],
            ...(this.#sessionId === undefined ? {} : { agentSession: this.#sessionId }),
          },
        ];
      }
      case 'assistant': {
        const content = object(message.message)?.content;
        const text = (Array.isArray(content) ? content : [])
          .map((block) => string(object(block)?.text) ?? '')
          .join('');
        if (text === '') return [];
        this.#step += 1;
        this.#turnSteps += 1;
        this.#lastText = text;
        return [{ type: 'text', step: this.#step, text }];
      }
      case 'tool_call': {
        const id = string(message.call_id) ?? `call-${this.#calls.size + 1}`;
        const call = callOf(object(message.tool_call) ?? {});
        if (message.subtype === 'started') {
          this.#calls.add(id);
          return [{ type: 'tool-call', step: this.#step, id, name: call.name, input: call.input }];
        }
        if (message.subtype !== 'completed' || !this.#calls.delete(id)) return [];
        const result = resultText(call.result);
        return [
          toolResultEvent(
            { step: this.#step, id, name: call.name },
            { ...result, code: result.isError ? 'CLI_AGENT_FAILED' : null },
          ),
        ];
      }
      case 'result': {
        this.#ended = true;
        this.#sessionId = string(message.session_id) ?? this.#sessionId;
        const text = string(message.result) ?? this.#lastText;
        if (message.is_error === true || message.subtype !== 'success')
          return this.fail(
            classifyAcpFailure("Cursor's CLI", { message: text }, this.#loginHint),
            text,
          );
        return [
          {
            type: 'end',
            status: 'done',
            limit: null,
            code: null,
            reason: null,
            steps: Math.max(this.#turnSteps, 1),
            usage: ZERO_USAGE,
            text,
          },
        ];
      }
      default:
        return [];
    }
  }

  /** The events that end the turn in a failure (or as interrupted). */
  fail(failure: CliFailure, text = this.#lastText, interrupted = false): LoopEvent[] {
    this.#ended = true;
    return [
      {
        type: 'error',
        code: failure.code,
        message: failure.message,
        ...(failure.hint === undefined || failure.hint === '' ? {} : { hint: failure.hint }),
      },
      {
        type: 'end',
        status: interrupted ? 'interrupted' : 'failed',
        limit: null,
        code: interrupted ? 'AGENT_INTERRUPTED' : failure.code,
        reason: failure.message,
        steps: this.#turnSteps,
        usage: ZERO_USAGE,
        text,
      },
    ];
  }
}
