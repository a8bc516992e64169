import { ApprovalBroker, EVENT_SCHEMA_VERSION, type LoopEvent } from '../../internal.js';
import { type ParsedArgs, UsageError } from '../args.js';
import type { CliDeps, CliIO, CliStream, SessionFiles } from '../io.js';
import { type TerminalView, terminalAsker, terminalView } from './agent-view.js';
import type { SessionState } from './session-log.js';

/** What every agent session has, whichever provider runs it: its id, log, events, view and broker. */
export interface SessionBasics {
  readonly sessionId: string;
  /** Appends a record to the session's log (keys redacted). */
  log(record: Record<string, unknown>): void;
  /** Writes to a stream, with every key redacted. */
  write(stream: CliStream, text: string): void;
  redact(text: string): string;
  /** Sets what is redacted (the provider's key, once known). */
  setRedact(redact: (text: string) => string): void;
  readonly view: TerminalView | undefined;
  /** Numbers an event, logs it (not the text deltas), prints it (--json) or shows it. */
  onEvent(event: LoopEvent): void;
  /** Hears every event of the session from now on, the broker's included. */
  listen(listener: (event: LoopEvent) => void): void;
  readonly broker: ApprovalBroker;
  /** The signal of the running turn: Ctrl-C at an approval prompt interrupts it. */
  setTurnSignal(signal: AbortSignal): void;
}

/** The options every session checks, its log, its event stream and its approval broker. */
export function sessionBasics(
  args: ParsedArgs,
  io: CliIO,
  deps: CliDeps,
  options: {
    readonly json: boolean;
    readonly store: SessionFiles | undefined;
    readonly resumed: SessionState | undefined;
    readonly listen?: (event: LoopEvent) => void;
  },
): SessionBasics {
  const { json, store, resumed } = options;
  if (args.options.yes === true && args.options.allow !== undefined)
    throw new UsageError('--yes approves every call already; --allow would add nothing');
  const sessionId = resumed?.id ?? deps.newSessionId();
  let redact = (text: string) => text;
  let seq = 0;
  const listeners: Array<(event: LoopEvent) => void> = [];
  const log = (record: Record<string, unknown>) => {
    if (store === undefined) return;
    store.append(sessionId, [redact(JSON.stringify(record))]);
  };
  const write = (stream: CliStream, text: string) => stream.write(redact(text));
  const view = json ? undefined : terminalView(io, write);
  const onEvent = (event: LoopEvent) => {
    seq += 1;
    const line = {
      v: EVENT_SCHEMA_VERSION,
      session: sessionId,
      seq,
      time: deps.now().toISOString(),
      ...event,
    };
    if (event.type !== 'text' && event.type !== 'reasoning') log({ type: 'event', event: line });
    options.listen?.(event);
    for (const listener of listeners) listener(event);
    if (json) write(io.stdout, `${JSON.stringify(line)}\n`);
    else view?.onEvent(event);
  };
  let turnSignal: AbortSignal | undefined;
  const ask = json ? undefined : terminalAsker(io, () => turnSignal);
  const broker = new ApprovalBroker({
    hash: deps.hash,
    ...(ask === undefined ? {} : { ask }),
    ...(args.options.yes === true ? { yes: true } : {}),
    allow: (args.options.allow as readonly string[] | undefined) ?? [],
    sessionGrants: resumed?.grants ?? [],
    onRequest: (request) =>
      onEvent({
        type: 'approval-request',
        id: request.id,
        toolCallId: request.toolCallId,
        inputHash: request.inputHash,
        kind: request.question.kind,
        summary: request.summary,
        question: request.question,
      }),
    onDecision: (request, decision, by) =>
      onEvent({
        type: 'approval-decision',
        id: request.id,
        inputHash: request.inputHash,
        decision: decision.decision,
        by,
        reason: decision.decision === 'denied' ? (decision.reason ?? null) : null,
      }),
    onSessionGrant: (key) => log({ type: 'grant', key }),
  });
  return {
    sessionId,
    log,
    write,
    redact: (text) => redact(text),
    setRedact: (next) => {
      redact = next;
    },
    view,
    onEvent,
    listen: (listener) => {
      listeners.push(listener);
    },
    broker,
    setTurnSignal: (signal) => {
      turnSignal = signal;
    },
  };
}
