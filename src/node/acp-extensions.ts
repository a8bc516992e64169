/**
 * Answers to the extension requests an ACP agent may block on. Cursor's CLI asks its client
 * questions (`cursor/ask_question`), plans to approve (`cursor/create_plan`) and the like, and
 * waits for the answer: an error reply would leave it waiting. skillhost answers each so the
 * agent goes on without it: a question is skipped (the agent is told to decide and say what it
 * chose), a plan is not approved (the agent's tools still ask permission for every action), a
 * to-do list or a task notice is acknowledged. Any other `cursor/…` request is cancelled. A
 * method no one knows gets undefined here, and the caller refuses it as not found.
 */

export interface ExtensionAnswer {
  /** The JSON-RPC result. */
  readonly result: unknown;
  /** What the user is told (a warning event). */
  readonly note: string;
}

const NO_ONE_TO_ASK =
  'skillhost runs this agent without anyone to answer questions: decide yourself, and say what you chose';

export function extensionAnswer(method: string, _params: unknown): ExtensionAnswer | undefined {
  switch (method) {
    case 'cursor/ask_question':
      return {
        result: { outcome: { outcome: 'skipped', reason: NO_ONE_TO_ASK } },
        note: 'The agent asked a question (cursor/ask_question); it was told to decide itself',
      };
    case 'cursor/create_plan':
      return {
        result: {
          outcome: {
            outcome: 'rejected',
            reason:
              'skillhost does not approve plans; carry on step by step (each tool still asks for permission)',
          },
        },
        note: 'The agent asked to approve a plan (cursor/create_plan); it was not approved',
      };
    case 'cursor/update_todos':
      return { result: {}, note: 'The agent updated its to-do list (cursor/update_todos)' };
    case 'cursor/task':
      return {
        result: { outcome: { outcome: 'completed' } },
        note: 'The agent reported a task (cursor/task)',
      };
    default:
      if (method.startsWith('cursor/'))
        return {
          result: { outcome: { outcome: 'cancelled' } },
          note: `The agent sent ${method}, which skillhost does not know; it was cancelled`,
        };
      return undefined;
  }
}
