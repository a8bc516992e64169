import type { ModelMessage } from 'ai';
import {
  BOUNDARY_PREFIX,
  isCompactionMessage,
  messageTexts,
  outputText,
  SKILL_CONTENT,
  SKILLS_STATE_HEADING,
  SUMMARY_HEADING,
  skillContentNames,
  skillToolKind,
  toolResults,
} from './messages.js';

/**
 * What the summariser is sent: its instructions, and the head of the conversation as a
 * transcript in which every skill's text is a stub (activations, reads of a skill's files,
 * bodies quoted in a message, an earlier skills state). Skill text never enters the summary:
 * the skills state carries it, exactly.
 */

/** The summariser's instructions (its system prompt). */
export const SUMMARY_INSTRUCTIONS = `You summarise the earlier part of a conversation between a user and an AI agent, so that the agent can go on without it. Write, in plain prose or short lists: what the user asked for and still wants; decisions made and why; what was done (files read or changed, commands run, their results); what failed; what remains to do; facts and values the agent will need. Be concise and exact; invent nothing.
Skills: name the skills that were used and what they were used for, and nothing more. Never restate, quote or paraphrase a skill's instructions: skillhost gives the agent each skill's exact instructions separately, and a paraphrase would compete with them.
Answer with the summary only.`;

/** What a summariser is asked: the instructions, the transcript, the most it may write. */
export interface SummaryRequest {
  readonly system: string;
  readonly prompt: string;
  readonly maxOutputTokens: number;
  readonly signal?: AbortSignal;
}

/** What a summariser gives back: the summary, and the tokens it took when known. */
export interface SummaryResult {
  readonly text: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** Makes a summary with a model (the session's, or a cheaper one). */
export type Summarizer = (request: SummaryRequest) => Promise<SummaryResult>;

const RESULT_CHARACTERS = 1500;
const CALL_CHARACTERS = 300;

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)} […${text.length - max} more characters]`;
}

/** A text with every skill body in it replaced by a stub. */
export function stubSkillText(text: string): string {
  if (!text.includes('<skill_content')) return text;
  return text.replace(SKILL_CONTENT, (_whole, name: string) => {
    return `[skill ${name}: its instructions are kept by skillhost, not here]`;
  });
}

interface CallInfo {
  readonly name: string;
  readonly input: unknown;
}

function callsOf(messages: readonly ModelMessage[]): Map<string, CallInfo> {
  const calls = new Map<string, CallInfo>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call')
        calls.set(part.toolCallId, { name: part.toolName, input: part.input });
    }
  }
  return calls;
}

function field(input: unknown, key: string): string {
  const value = (input as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' ? value : '';
}

function compactionLines(message: ModelMessage): string[] {
  const lines: string[] = [];
  for (const text of messageTexts(message)) {
    if (text.startsWith(BOUNDARY_PREFIX)) continue;
    if (text.startsWith(SUMMARY_HEADING))
      lines.push(`EARLIER SUMMARY:\n${text.slice(SUMMARY_HEADING.length).trim()}`);
    else if (text.startsWith(SKILLS_STATE_HEADING))
      lines.push('[the skills state of an earlier compaction: kept by skillhost, not here]');
    else lines.push(`USER: ${stubSkillText(text)}`);
  }
  return lines;
}

function resultLine(name: string, text: string, call: CallInfo | undefined): string {
  const kind = skillToolKind(name);
  if (kind === 'activate') {
    const names = skillContentNames(text);
    const skill = names[0] ?? field(call?.input, 'name');
    return text.startsWith('Error')
      ? `RESULT of ${name}: ${cut(text, 300)}`
      : `RESULT of ${name}: [skill ${skill} activated; its instructions are kept by skillhost and given back separately: name it, do not restate it]`;
  }
  if (kind === 'read' && !text.startsWith('Error'))
    return `RESULT of ${name}: [file ${field(call?.input, 'path')} of skill ${field(call?.input, 'name')}, ${text.length} characters: skill files are not summarised; the agent reads them again when needed]`;
  return `RESULT of ${name}: ${cut(stubSkillText(text), RESULT_CHARACTERS)}`;
}

/** The transcript lines of a head, one entry per message. */
function transcript(head: readonly ModelMessage[]): string[] {
  const calls = callsOf(head);
  const entries: string[] = [];
  for (const message of head) {
    if (isCompactionMessage(message)) {
      entries.push(compactionLines(message).join('\n'));
      continue;
    }
    if (message.role === 'tool') {
      entries.push(
        toolResults(message)
          .map((part) => resultLine(part.toolName, outputText(part), calls.get(part.toolCallId)))
          .join('\n'),
      );
      continue;
    }
    if (message.role === 'system') continue;
    const who = message.role === 'user' ? 'USER' : 'ASSISTANT';
    const lines: string[] = [];
    if (typeof message.content === 'string')
      lines.push(`${who}: ${stubSkillText(message.content)}`);
    else
      for (const part of message.content) {
        if (part.type === 'text') lines.push(`${who}: ${stubSkillText(part.text)}`);
        else if (part.type === 'tool-call')
          lines.push(
            `ASSISTANT called ${part.toolName} ${cut(JSON.stringify(part.input ?? {}), CALL_CHARACTERS)}`,
          );
      }
    if (lines.length > 0) entries.push(lines.join('\n'));
  }
  return entries.filter((entry) => entry !== '');
}

/**
 * The summariser's prompt for a head: its transcript, skill text stubbed, at most
 * `maxCharacters` (the first entry, an earlier summary, is kept; the middle goes first).
 */
export function summaryPrompt(head: readonly ModelMessage[], maxCharacters: number): string {
  const entries = transcript(head);
  let total = entries.reduce((sum, entry) => sum + entry.length + 2, 0);
  let dropped = 0;
  while (total > maxCharacters && entries.length > 2) {
    const [removed] = entries.splice(1, 1);
    total -= (removed as string).length + 2;
    dropped += 1;
  }
  if (dropped > 0) entries.splice(1, 0, `[… ${dropped} earlier messages left out for length …]`);
  return `The conversation so far:\n\n${entries.join('\n\n')}\n\nWrite the summary now.`;
}
