import {
  type ApprovalDecision,
  type ApprovalRequest,
  canonicalJson,
  type LoopEvent,
} from '../../internal.js';
import type { CliIO, CliStream } from '../io.js';
import { printable } from '../printable.js';

/**
 * How an agent session shows itself at a terminal, whichever provider runs it: the streamed
 * text and one line per tool call (`terminalView`), the approval prompt (`terminalAsker`), and
 * the redaction of keys from everything written.
 */

/** Replaces each secret with [redacted] in a text. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const kept = secrets.filter((secret) => secret.length >= 8);
  if (kept.length === 0) return (text) => text;
  return (text) => kept.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** One line per tool call: `▸ name arg arg … ok 1.2 KB`. */
function callLine(name: string, input: unknown): string {
  const values =
    input !== null && typeof input === 'object'
      ? Object.values(input as Record<string, unknown>).map((value) =>
          typeof value === 'string' ? value : JSON.stringify(value),
        )
      : [];
  const shown = printable(values.join(' ').replace(/\s+/g, ' '));
  return `▸ ${name}${shown === '' ? '' : ` ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`}`;
}

export function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The terminal prompt: one request at a time; yes once, for this session, no (with a reason), view, quit. */
export function terminalAsker(
  io: CliIO,
  signal: () => AbortSignal | undefined,
): ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined {
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true) return undefined;
  let queue = Promise.resolve();
  return (request) => {
    const asked = queue.then(async (): Promise<ApprovalDecision> => {
      io.stderr.write(
        `\n? ${printable(request.summary)}\n  ${printable(String((request.question as { reason?: string }).reason ?? ''))}\n`,
      );
      while (true) {
        io.stderr.write(
          '  [y]es once / [s]ession: always for this session / [n]o / [v]iew the input / [q]uit: ',
        );
        // Ctrl-C during the question interrupts the turn: the question is left unanswered.
        const current = signal();
        const answer = (await input.readLine(current === undefined ? {} : { signal: current }))
          ?.trim()
          .toLowerCase();
        if (current?.aborted === true) {
          io.stderr.write('\n');
          return { decision: 'denied', reason: 'interrupted' };
        }
        if (answer === undefined) return { decision: 'denied', reason: 'no answer' };
        if (answer === 'y' || answer === 'yes') return { decision: 'once' };
        if (answer === 's' || answer === 'session') return { decision: 'session' };
        if (answer === 'q' || answer === 'quit') return { decision: 'quit' };
        if (answer === 'v' || answer === 'view') {
          io.stderr.write(
            `${printable(JSON.stringify(JSON.parse(canonicalJson(request.question)), null, 2))}\n  input sha256 ${request.inputHash}\n`,
          );
          continue;
        }
        if (answer === 'n' || answer === 'no') {
          io.stderr.write('  Reason, for the model (optional): ');
          const reason = (await input.readLine())?.trim() ?? '';
          return reason === '' ? { decision: 'denied' } : { decision: 'denied', reason };
        }
      }
    });
    queue = asked.then(
      () => undefined,
      () => undefined,
    );
    return asked;
  };
}

/** How a session shows its events on a terminal: streamed text, one line per tool call. */
export interface TerminalView {
  onEvent(event: LoopEvent): void;
  /** Ends the streamed text with a line break, if it is open. */
  closeText(): void;
  /** Whether text was streamed since the last `closeText`. */
  readonly streaming: boolean;
}

export function terminalView(
  io: CliIO,
  write: (stream: CliStream, text: string) => void,
): TerminalView {
  let streaming = false;
  let approvalNote = '';
  /** The current call's line, said again after a question at the terminal came between. */
  let callText = '';
  let asked = false;
  const closeText = () => {
    if (streaming) write(io.stdout, '\n');
    streaming = false;
  };
  return {
    get streaming() {
      return streaming;
    },
    closeText,
    onEvent: (event) => {
      switch (event.type) {
        case 'text':
          streaming = true;
          write(io.stdout, event.text);
          break;
        case 'tool-call':
          closeText();
          callText = `${callLine(event.name, event.input)} … `;
          write(io.stderr, callText);
          break;
        case 'tool-result':
          write(
            io.stderr,
            `${asked ? callText : ''}${event.isError ? `error ${event.code ?? ''}`.trim() : 'ok'} ${size(event.bytes)}${approvalNote}\n`,
          );
          approvalNote = '';
          asked = false;
          break;
        case 'retry':
          write(
            io.stderr,
            `\n↻ ${event.code}: ${event.message}; retrying in ${(event.delayMs / 1000).toFixed(1)} s\n`,
          );
          break;
        case 'model-switch':
          write(
            io.stderr,
            `\n⇄ ${event.from} failed (${event.code}: ${event.message}); switching to ${event.to}\n`,
          );
          break;
        case 'warning':
          // What does not stop the run but should be known (Cursor's print mode, a mode switched back).
          closeText();
          write(io.stderr, `warning ${event.code}: ${printable(event.message)}\n`);
          break;
        case 'approval-decision':
          asked ||= event.by === 'user';
          // Said on the call's own line: approved once by a flag, or by the session's grant.
          if (event.by !== 'user')
            approvalNote = ` (${event.decision === 'denied' ? 'denied: no terminal' : event.by === 'flag' ? 'approved by --yes/--allow' : 'approved for this session'})`;
          break;
        default:
          break;
      }
    },
  };
}
