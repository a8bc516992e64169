import { type Code, SkillhostError } from '../core.js';
import {
  type CliAgentExit,
  type CliFailure,
  EventStream,
  type LoopEvent,
  ZERO_USAGE,
} from '../internal.js';
import { type CliProcess, IdleTimer } from './cli-process.js';
import type { PrivateFolder } from './private-files.js';

/**
 * What every command-line agent session does the same way, whatever its protocol: the events
 * queue, one turn at a time (messages sent during a turn wait for its end), the idle timeout of
 * a turn (paused while skillhost waits for an approval), and the one closing sequence (the
 * process stopped with its group, the private files removed, the events ended).
 */

/** The most text a `tool-result` event carries (the model gets it whole). */
const RESULT_TEXT_CHARS = 2_000;

/** A tool's result as an event: its size in bytes, its text cut for the event. */
export function toolResultEvent(
  call: { readonly step: number; readonly id: string; readonly name: string },
  result: { readonly isError: boolean; readonly code: Code | null; readonly text: string },
): LoopEvent {
  return {
    type: 'tool-result',
    ...call,
    isError: result.isError,
    code: result.code,
    bytes: new TextEncoder().encode(result.text).length,
    text: result.text.slice(0, RESULT_TEXT_CHARS),
  };
}

/**
 * The events of a turn that ends in a failure the agent did not report itself (it exited, went
 * silent, its prompt failed): the error, then the end (interrupted when it was being stopped).
 */
export function failedTurn(
  failure: CliFailure,
  turn: { readonly interrupted: boolean; readonly steps: number; readonly text: string },
): LoopEvent[] {
  return [
    {
      type: 'error',
      code: failure.code,
      message: failure.message,
      ...(failure.hint === undefined ? {} : { hint: failure.hint }),
    },
    {
      type: 'end',
      status: turn.interrupted ? 'interrupted' : 'failed',
      limit: null,
      code: turn.interrupted ? 'AGENT_INTERRUPTED' : failure.code,
      reason: failure.message,
      steps: turn.steps,
      usage: ZERO_USAGE,
      text: turn.text,
    },
  ];
}

/** Default idle timeout of a turn. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

export interface SessionProtocol {
  /** Sends one message to the agent as a new turn. */
  deliver(message: string): void;
  /** Asks the agent to stop the current turn. */
  interrupt(): void;
  /** The events that end an open turn the agent will not finish (it exited, went silent). */
  abandon(failure: CliFailure): LoopEvent[];
}

export class CliSessionCore {
  readonly events = new EventStream<LoopEvent>();
  readonly idle: IdleTimer;
  readonly #process: CliProcess;
  readonly #folder: PrivateFolder | undefined;
  readonly #graceMs: number | undefined;
  readonly #label: string;
  #protocol: SessionProtocol | undefined;
  readonly #queue: string[] = [];
  #inTurn = false;
  #closing: Promise<CliAgentExit> | undefined;
  #closed = false;

  constructor(parts: {
    readonly process: CliProcess;
    readonly folder?: PrivateFolder;
    readonly idleTimeoutMs?: number;
    readonly graceMs?: number;
    readonly label: string;
  }) {
    this.#process = parts.process;
    this.#folder = parts.folder;
    this.#graceMs = parts.graceMs;
    this.#label = parts.label;
    const idleMs = parts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.idle = new IdleTimer(idleMs, () => {
      this.fail({
        code: 'CLI_AGENT_IDLE_TIMEOUT',
        message: `${this.#label} said nothing for ${Math.round(idleMs / 1000)} s during a turn; it was stopped`,
      });
      void this.close();
    });
  }

  /** The protocol, once it is ready to take messages (queued ones go out then). */
  attach(protocol: SessionProtocol): void {
    this.#protocol = protocol;
    this.#next();
  }

  get process(): CliProcess {
    return this.#process;
  }

  get closed(): boolean {
    return this.#closed || this.#closing !== undefined;
  }

  send(message: string): void {
    if (this.closed)
      throw new SkillhostError('CLI_AGENT_FAILED', `the ${this.#label} session is closed`);
    this.#queue.push(message);
    this.#next();
  }

  cancel(): void {
    if (this.#inTurn) this.#protocol?.interrupt();
  }

  /** Events of the agent: each one resets the idle timer; a turn's `end` lets the next message go. */
  emit(events: readonly LoopEvent[]): void {
    for (const event of events) {
      this.idle.touch();
      this.events.push(event);
      if (event.type === 'end') {
        this.#inTurn = false;
        this.idle.stop();
        this.#next();
      }
    }
  }

  /** Heard from the agent, though it is no event of ours (a status line). */
  heard(): void {
    this.idle.touch();
  }

  /** Ends the open turn with a failure (the agent will not end it itself). */
  fail(failure: CliFailure): void {
    if (this.#protocol !== undefined) this.emit(this.#protocol.abandon(failure));
    else if (this.#inTurn)
      this.emit(failedTurn(failure, { interrupted: false, steps: 0, text: '' }));
    this.#inTurn = false;
  }

  #next(): void {
    if (this.#inTurn || this.closed || this.#protocol === undefined) return;
    const message = this.#queue.shift();
    if (message === undefined) return;
    this.#inTurn = true;
    this.idle.start();
    this.#protocol.deliver(message);
  }

  /** The agent's process ended (or its output did) on its own: the open turn fails, then all closes. */
  exitedUnexpectedly(failure: CliFailure): void {
    if (this.#closing !== undefined) return;
    this.fail(failure);
    void this.close();
  }

  close(): Promise<CliAgentExit> {
    this.#closing ??= (async () => {
      this.idle.stop();
      try {
        return await this.#process.stop(this.#graceMs);
      } finally {
        this.#folder?.remove();
        this.#closed = true;
        this.events.end();
      }
    })();
    return this.#closing;
  }
}
