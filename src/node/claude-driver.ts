import { SkillhostError } from '../core.js';
import {
  type CliAgentDriver,
  type CliAgentSession,
  type CliAgentStartOptions,
  type CliPermissionDecision,
  claudeToolRequest,
  denialMessage,
  type SessionStartInfo,
} from '../internal.js';
import { claudeArguments, claudeMcpConfig } from './claude-args.js';
import { CLAUDE_LOGIN_HINT, ClaudeStreamReader, classifyClaudeFailure } from './claude-stream.js';
import { probeCliAgent, probeOnce } from './cli-probe.js';
import { readLines, startCliProcess } from './cli-process.js';
import { CliSessionCore } from './cli-session.js';
import { makePrivateFolder } from './private-files.js';

/**
 * The `claude` provider: Claude Code driven as one long-lived `claude -p` process over its
 * stream-json control protocol (see claude-args.ts for every flag and why). Every tool call
 * comes to the permission callback through a `PreToolUse` hook (Claude Code runs some without
 * asking otherwise: commands it deems read-only, reads in its folder), and every `can_use_tool`
 * question it still asks goes there too; the `SessionStart` hook (after a compaction) goes to
 * `onSessionStart`.
 */

type Json = Record<string, unknown>;

/** The oldest Claude Code whose flags and control protocol this driver uses (tested with 2.1.332). */
export const CLAUDE_MINIMUM_VERSION = '2.1.0';
export const CLAUDE_INSTALL_HINT =
  'install Claude Code with npm install -g @anthropic-ai/claude-code';

/** How long Claude Code has to answer `initialize`. */
const START_TIMEOUT_MS = 120_000;

/** The ids skillhost registers its hooks under. */
const SESSION_START_HOOK = 'skillhost_session_start';
const PRE_TOOL_USE_HOOK = 'skillhost_pre_tool_use';
/** How long a PreToolUse hook may wait for an answer (an approval at a terminal takes time). */
const HOOK_TIMEOUT_S = 24 * 60 * 60;

export interface ClaudeDriverOptions {
  /** The program (default `claude`, found on the environment's PATH) and arguments before the driver's. */
  readonly command?: string;
  readonly commandPrefix?: readonly string[];
  /** The environment of the probe (`start` takes the session's own). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The built-in tools Claude Code keeps (`claudeBuiltinTools(policy.tools)`); default none. */
  readonly builtinTools?: readonly string[];
  /** What the policy allows or denies outright (`claudePermissionFlags`); never an "ask" tool. */
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  /** `append` (default): the agent's prompt follows Claude Code's own; `replace`: it is the whole. */
  readonly systemPromptMode?: 'append' | 'replace';
  /** Where the private folder of a session is made (default: the system's temporary folder). */
  readonly tempDir?: string;
}

function object(value: unknown): Json {
  return value !== null && typeof value === 'object' ? (value as Json) : {};
}

function sourceOf(value: unknown): SessionStartInfo['source'] {
  return value === 'startup' || value === 'resume' || value === 'compact' || value === 'clear'
    ? value
    : 'unknown';
}

export function createClaudeDriver(options: ClaudeDriverOptions): CliAgentDriver {
  const command = options.command ?? 'claude';
  const prefix = options.commandPrefix ?? [];
  const probe = probeOnce(() =>
    probeCliAgent({
      label: 'Claude Code',
      command,
      prefix,
      minimum: CLAUDE_MINIMUM_VERSION,
      installHint: CLAUDE_INSTALL_HINT,
      env: options.env,
      cwd: options.cwd,
    }),
  );
  return {
    provider: 'claude',
    probe,
    start: (start) => startClaudeSession(options, command, prefix, start),
  };
}

async function startClaudeSession(
  options: ClaudeDriverOptions,
  command: string,
  prefix: readonly string[],
  start: CliAgentStartOptions,
): Promise<CliAgentSession> {
  const folder = makePrivateFolder('skillhost-claude-', options.tempDir);
  let argv: string[];
  try {
    argv = claudeArguments({
      mcpConfigFile: folder.write('mcp.json', claudeMcpConfig(start.mcpServer)),
      systemPromptFile: folder.write('system-prompt.md', start.system),
      systemPromptMode: options.systemPromptMode ?? 'append',
      builtinTools: options.builtinTools ?? [],
      allowedTools: options.allowedTools ?? [],
      disallowedTools: options.disallowedTools ?? [],
      ...(start.model === undefined ? {} : { model: start.model }),
      ...(start.resume === undefined ? {} : { resume: start.resume }),
      ...(start.maxTurns === undefined ? {} : { maxTurns: start.maxTurns }),
    });
  } catch (error) {
    folder.remove();
    throw error;
  }
  let child: Awaited<ReturnType<typeof startCliProcess>>;
  try {
    child = await startCliProcess({
      command,
      args: [...prefix, ...argv],
      cwd: start.cwd,
      env: start.env,
      label: 'Claude Code',
      installHint: CLAUDE_INSTALL_HINT,
    });
  } catch (error) {
    folder.remove();
    throw error;
  }
  const core = new CliSessionCore({
    process: child,
    folder,
    label: 'Claude Code',
    ...(start.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: start.idleTimeoutMs }),
    ...(start.closeGraceMs === undefined ? {} : { graceMs: start.closeGraceMs }),
  });
  const reader = new ClaudeStreamReader('claude');
  const write = (message: Json) => child.writeLine(JSON.stringify(message));
  const respond = (requestId: unknown, response: Json) =>
    write({
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response },
    });
  const refuse = (requestId: unknown, error: string) =>
    write({
      type: 'control_response',
      response: { subtype: 'error', request_id: requestId, error },
    });
  const questions = new Map<string, AbortController>();
  let requests = 0;
  let initialized: (() => void) | undefined;
  let initFailed: ((error: SkillhostError) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    initialized = resolve;
    initFailed = reject;
  });
  let badLines = 0;

  /**
   * One permission question, whichever way Claude Code asks it: the callback decides; the answer
   * is sent unless the question was withdrawn meanwhile (control_cancel_request).
   */
  const decide = async (
    requestId: string,
    question: { tool: string; input: unknown; toolUseId: unknown; label: unknown },
    answer: (decision: CliPermissionDecision) => void,
  ) => {
    const controller = new AbortController();
    questions.set(requestId, controller);
    let decision: CliPermissionDecision;
    try {
      decision = await core.idle.paused(() =>
        start.permissions({
          id: requestId,
          provider: 'claude',
          tool: question.tool,
          request: claudeToolRequest(question.tool, question.input, {
            server: start.mcpServer.name,
            cwd: start.cwd,
          }),
          input: question.input,
          toolCallId: typeof question.toolUseId === 'string' ? question.toolUseId : null,
          title: `${typeof question.label === 'string' ? question.label : question.tool} ${JSON.stringify(question.input).slice(0, 200)}`,
          scopes: ['once'],
          signal: controller.signal,
        }),
      );
    } catch (error) {
      decision = {
        behavior: 'deny',
        rule: 'error',
        reason: `the approval failed: ${(error as Error).message}`,
      };
    }
    if (controller.signal.aborted || questions.get(requestId) !== controller) return;
    questions.delete(requestId);
    answer(decision);
  };

  /** `can_use_tool`: Claude Code's own question, answered in its nested shape. */
  const askPermission = (requestId: string, request: Json) => {
    const tool = typeof request.tool_name === 'string' ? request.tool_name : '';
    const input = request.input ?? {};
    return decide(
      requestId,
      { tool, input, toolUseId: request.tool_use_id, label: request.display_name },
      (decision) =>
        respond(
          requestId,
          decision.behavior === 'allow'
            ? { behavior: 'allow', updatedInput: input }
            : { behavior: 'deny', message: denialMessage(decision) },
        ),
    );
  };

  /**
   * The PreToolUse hook: every tool call, including those Claude Code would run without asking
   * (commands it deems read-only, reads in its folder), goes to the policy first.
   */
  const preToolUse = (requestId: string, input: Json) => {
    const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
    return decide(
      requestId,
      { tool, input: input.tool_input ?? {}, toolUseId: input.tool_use_id, label: tool },
      (decision) =>
        respond(requestId, {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: decision.behavior,
            ...(decision.behavior === 'deny'
              ? { permissionDecisionReason: denialMessage(decision) }
              : { permissionDecisionReason: "Allowed by skillhost's policy" }),
          },
        }),
    );
  };

  const sessionStart = async (requestId: string, input: Json) => {
    let context: string | undefined;
    try {
      context = await start.onSessionStart?.({
        source: sourceOf(input.source),
        agentSession: reader.init?.sessionId,
      });
    } catch {
      context = undefined;
    }
    respond(
      requestId,
      context === undefined || context === ''
        ? {}
        : { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } },
    );
  };

  const controlRequest = (message: Json) => {
    const requestId = String(message.request_id ?? '');
    const request = object(message.request);
    switch (request.subtype) {
      case 'can_use_tool':
        void askPermission(requestId, request);
        return;
      case 'hook_callback':
        if (request.callback_id === PRE_TOOL_USE_HOOK)
          void preToolUse(requestId, object(request.input));
        else if (request.callback_id === SESSION_START_HOOK)
          void sessionStart(requestId, object(request.input));
        else respond(requestId, {});
        return;
      default:
        // Never left unanswered: a question the driver does not know is refused, by name.
        refuse(requestId, `skillhost does not answer ${String(request.subtype)} requests`);
    }
  };

  readLines(
    child.stdout,
    (line) => {
      let message: Json;
      try {
        message = object(JSON.parse(line));
      } catch {
        badLines += 1;
        core.heard();
        if (badLines === 1)
          core.emit([
            {
              type: 'warning',
              code: 'CLI_AGENT_PROTOCOL_ERROR',
              message: `Claude Code wrote a line that is not JSON: ${line.slice(0, 200)}`,
            },
          ]);
        return;
      }
      if (message.type === 'control_request') {
        core.heard();
        controlRequest(message);
      } else if (message.type === 'control_cancel_request') {
        core.heard();
        const id = String(message.request_id ?? '');
        questions.get(id)?.abort();
        questions.delete(id);
      } else if (message.type === 'control_response') {
        core.heard();
        const response = object(message.response);
        if (response.request_id !== 'skillhost_initialize') return;
        if (response.subtype === 'success') initialized?.();
        else
          initFailed?.(
            new SkillhostError(
              'CLI_AGENT_FAILED',
              `Claude Code refused to start the session: ${String(response.error ?? 'no reason given')}`,
            ),
          );
      } else {
        core.emit(reader.read(message));
      }
    },
    {
      onOversize: (bytes) =>
        core.emit([
          {
            type: 'warning',
            code: 'CLI_AGENT_PROTOCOL_ERROR',
            message: `Claude Code wrote a line of more than ${bytes} bytes; it was dropped`,
          },
        ]),
      onEnd: () => {
        for (const controller of questions.values()) controller.abort();
        questions.clear();
        void child.exited.then((exit) => {
          const tail = child.stderrTail().trim();
          const failure = classifyClaudeFailure({ text: tail });
          const login = failure.code === 'CLI_AGENT_LOGIN_REQUIRED';
          const message = `Claude Code exited (${exit.code ?? exit.signal}) before the turn ended${tail === '' ? '' : `: ${tail.slice(-500)}`}`;
          const problem = login
            ? { code: failure.code, message, hint: CLAUDE_LOGIN_HINT }
            : { code: 'CLI_AGENT_FAILED' as const, message };
          initFailed?.(new SkillhostError(problem.code, message));
          core.exitedUnexpectedly(problem);
        });
      },
    },
  );

  // The control protocol starts with initialize; no message goes before its answer.
  write({
    type: 'control_request',
    request_id: 'skillhost_initialize',
    request: {
      subtype: 'initialize',
      hooks: {
        // Every call of every tool; an unanswered or failed hook blocks the call.
        PreToolUse: [
          { hookCallbackIds: [PRE_TOOL_USE_HOOK], timeout: HOOK_TIMEOUT_S, onFailure: 'block' },
        ],
        ...(start.onSessionStart === undefined
          ? {}
          : { SessionStart: [{ hookCallbackIds: [SESSION_START_HOOK] }] }),
      },
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const startLimitMs = Math.min(start.idleTimeoutMs ?? START_TIMEOUT_MS, START_TIMEOUT_MS);
  try {
    await Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new SkillhostError(
                'CLI_AGENT_IDLE_TIMEOUT',
                `Claude Code did not answer initialize within ${Math.round(startLimitMs / 1000)} s`,
              ),
            ),
          startLimitMs,
        );
      }),
    ]);
  } catch (error) {
    clearTimeout(timer);
    await core.close();
    throw error;
  }
  clearTimeout(timer);
  initFailed = undefined;
  core.attach({
    deliver: (message) => {
      reader.beginTurn();
      write({
        type: 'user',
        message: { role: 'user', content: message },
        parent_tool_use_id: null,
        session_id: reader.init?.sessionId ?? '',
      });
    },
    interrupt: () => {
      reader.markInterrupted();
      requests += 1;
      write({
        type: 'control_request',
        request_id: `skillhost_interrupt_${requests}`,
        request: { subtype: 'interrupt' },
      });
    },
    abandon: (failure) => reader.abandon(failure),
  });
  return {
    provider: 'claude',
    events: core.events,
    send: (message) => core.send(message),
    cancel: () => core.cancel(),
    close: () => core.close(),
    get agentSession() {
      return reader.init?.sessionId;
    },
    get model() {
      return reader.init?.model;
    },
  };
}
