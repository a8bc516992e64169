import type { Code } from '../codes.js';
import type { ToolRequest } from '../policy/engine.js';
import type { LoopEvent } from './events.js';

/**
 * Command-line agents as providers: Claude Code, Cursor, Gemini CLI, any ACP agent. The agent runs
 * its own loop in its own process; skillhost gives it the runtime's tools through its MCP server,
 * answers every permission question it asks, and reads its output as the loop's events. The
 * drivers live in `node/` (they spawn processes); this file is their provider-neutral shape.
 */

/** How the agent reaches skillhost's MCP server for this session: it spawns it, or connects. */
export type CliMcpServer =
  | {
      readonly transport: 'stdio';
      /** The server's name in the agent's settings; it shows in the tools' names (`mcp__NAME__…`). */
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | {
      readonly transport: 'http';
      readonly name: string;
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** Where the allow a permission answer gives reaches: this call, or what the agent offers beyond it. */
export type CliPermissionScope = 'once' | 'always';

/** A permission question of the agent, about one of its own tools or one of ours. */
export interface CliPermissionRequest {
  /** The agent's id of the question (a control request id, a JSON-RPC id). */
  readonly id: string;
  /** `claude`, `cursor`, `gemini` or `acp`. */
  readonly provider: string;
  /** The agent's own name of the tool (`Bash`, `mcp__skillhost__skillhost_run`, a title). */
  readonly tool: string;
  /** The call as the policy reads it (canonical tool, command, path); undefined when no tool of the policy is it. */
  readonly request: ToolRequest | undefined;
  /** The tool's input as the agent sent it. */
  readonly input: unknown;
  /** The tool call the question is about, when the agent says. */
  readonly toolCallId: string | null;
  /** One line: what would happen. */
  readonly title: string;
  /** The allow scopes the agent offers (Claude Code: once; ACP: what its options hold). */
  readonly scopes: readonly CliPermissionScope[];
  /** Aborted when the agent withdraws the question: a late answer is not sent. */
  readonly signal: AbortSignal;
}

/** An answer: allow (once, or as the agent's "always"), or deny with the rule that decided. */
export type CliPermissionDecision =
  | { readonly behavior: 'allow'; readonly scope: CliPermissionScope }
  | {
      readonly behavior: 'deny';
      /** The policy's rule (`deny-rule`, `ceiling`, `approval`, …) and the entry, if any. */
      readonly rule: string;
      readonly reason: string;
    };

/** Who answers the agent's permission questions: the policy and the approval broker. */
export type CliPermissionHandler = (
  request: CliPermissionRequest,
) => Promise<CliPermissionDecision>;

/** When the agent's session starts again: at startup, on resume, after a compaction or a clear. */
export interface SessionStartInfo {
  readonly source: 'startup' | 'resume' | 'compact' | 'clear' | 'unknown';
  /** The agent's own session id, when known. */
  readonly agentSession: string | undefined;
}

/**
 * The hook point of the context lifecycle: what the model is told when its session starts again
 * (after a compaction: the skills-state block, so active skills are not lost). Claude Code asks it
 * through its `SessionStart` hook; the other agents get the text with the next message.
 */
export type SessionStartHook = (
  info: SessionStartInfo,
) => Promise<string | undefined> | string | undefined;

/** The folder the agent works in, for the requests it sends the client (ACP file reads and writes). */
export interface CliWorkspace {
  readonly path: string;
  readonly writable: boolean;
}

export interface CliAgentStartOptions {
  /** The agent's instructions, preloaded skills and catalog (`agentSystemPrompt`). */
  readonly system: string;
  /** The agent's working folder. */
  readonly cwd: string;
  /** The agent's whole environment (its PATH, HOME, keys); nothing else is passed. */
  readonly env: Readonly<Record<string, string>>;
  /** skillhost's MCP server for this session. */
  readonly mcpServer: CliMcpServer;
  readonly permissions: CliPermissionHandler;
  /** The model, only when one was chosen; otherwise the agent's own default (reported in `start`). */
  readonly model?: string;
  /** The agent's own session id to continue. */
  readonly resume?: string;
  /** Where client-side file requests may read (and write, when writable); none: refused. */
  readonly workspace?: CliWorkspace;
  readonly onSessionStart?: SessionStartHook;
  /** Stop a turn (and the agent) when it says nothing this long; waiting for an approval does not count. Default 10 minutes. */
  readonly idleTimeoutMs?: number;
  /** How long the agent has to exit after its input is closed, and again after SIGTERM. Default 2 s. */
  readonly closeGraceMs?: number;
  /** Most model turns the agent may take for one message (Claude Code's --max-turns). */
  readonly maxTurns?: number;
}

/** How the agent's process ended. */
export interface CliAgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Whether skillhost had to signal it: not at all, SIGTERM, or SIGKILL of its process group. */
  readonly stopped: 'exited' | 'terminated' | 'killed';
  /** The end of its error output, for messages. */
  readonly stderrTail: string;
}

/**
 * One running agent: send messages, read events. Every message is one turn; each turn's events
 * end with one `end` event. `events` ends when the session closes.
 */
export interface CliAgentSession {
  readonly provider: string;
  readonly events: AsyncIterable<LoopEvent>;
  /** Starts a turn with this message (queued while the agent starts). */
  send(message: string): void;
  /** Asks the agent to stop the current turn; it ends as `interrupted`. */
  cancel(): void;
  /** Closes input, waits, then SIGTERM and SIGKILL the process group; removes private files. */
  close(): Promise<CliAgentExit>;
  /** The agent's own session id (for `resume`), once it said it. */
  readonly agentSession: string | undefined;
  /** The model the agent says it uses, once it said it. */
  readonly model: string | undefined;
}

/** What a probe found: the agent's version. */
export interface CliAgentVersion {
  readonly version: string;
  readonly minimum: string;
}

export interface CliAgentDriver {
  readonly provider: string;
  /** Checks once that the agent is installed and recent enough; throws a coded error otherwise. */
  probe(): Promise<CliAgentVersion>;
  start(options: CliAgentStartOptions): Promise<CliAgentSession>;
}

/** A turn's events: sends `message`, yields until (and with) the turn's `end` event. */
export async function* runCliTurn(
  session: CliAgentSession,
  message: string,
): AsyncGenerator<LoopEvent, void, undefined> {
  const iterator = session.events[Symbol.asyncIterator]();
  session.send(message);
  while (true) {
    const next = await iterator.next();
    if (next.done === true) return;
    yield next.value;
    if (next.value.type === 'end') return;
  }
}

/** A failure a driver classified: its code, message, and a hint when the code is not enough. */
export interface CliFailure {
  readonly code: Code;
  readonly message: string;
  readonly hint?: string;
}
