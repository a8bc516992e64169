import type { ModelMessage, ToolResultPart } from 'ai';

/**
 * What the context manager reads in a conversation (AI SDK messages): texts, tool results, the
 * skills' text in them, and the message a compaction put first.
 */

/** The first text of the message a compaction puts first (the boundary marker). */
export const BOUNDARY_PREFIX = '[skillhost: the conversation was compacted';
/** The first line of the summary part. */
export const SUMMARY_HEADING =
  'Summary of the earlier conversation (a model wrote it; the skills are not in it, they follow it):';
/** The first line of the skills-state block. */
export const SKILLS_STATE_HEADING = 'Skills state (kept by skillhost, not by the summary):';

/** The activation tool, by its names (the former one still answers). */
const ACTIVATE_TOOLS = new Set(['skillhost_activate', 'activate_skill']);
const READ_TOOLS = new Set(['skillhost_read', 'read_skill_resource']);
const RUN_TOOLS = new Set(['skillhost_run', 'run_skill_script']);

export type SkillToolKind = 'activate' | 'read' | 'run';

/** Which skill tool a name is, if it is one. */
export function skillToolKind(name: string): SkillToolKind | undefined {
  if (ACTIVATE_TOOLS.has(name)) return 'activate';
  if (READ_TOOLS.has(name)) return 'read';
  if (RUN_TOOLS.has(name)) return 'run';
  return undefined;
}

/** A skill's wrapped body (`<skill_content name="...">` to its closing tag, or to the end). */
export const SKILL_CONTENT = /<skill_content name="([^"]*)"[^>]*>[\s\S]*?(?:<\/skill_content>|$)/g;

/** The names whose wrapped bodies a text holds. */
export function skillContentNames(text: string): string[] {
  if (!text.includes('<skill_content')) return [];
  return [...text.matchAll(SKILL_CONTENT)].map((match) => unescapeXml(match[1] as string));
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The text a tool result carries, however its output is shaped. */
export function outputText(part: ToolResultPart): string {
  const output = part.output as { type: string; value?: unknown };
  switch (output.type) {
    case 'text':
    case 'error-text':
      return typeof output.value === 'string' ? output.value : '';
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value ?? null);
    case 'content':
      return Array.isArray(output.value)
        ? output.value
            .map((item: { type?: string; text?: unknown }) =>
              item.type === 'text' && typeof item.text === 'string' ? item.text : '',
            )
            .join('\n')
        : '';
    default:
      return '';
  }
}

/** The texts of a user or assistant message (tool calls and results aside). */
export function messageTexts(message: ModelMessage): string[] {
  if (message.role === 'tool') return [];
  if (typeof message.content === 'string') return [message.content];
  const texts: string[] = [];
  for (const part of message.content as ReadonlyArray<{ type: string; text?: unknown }>) {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  return texts;
}

/** The tool results of a tool message (none for other messages). */
export function toolResults(message: ModelMessage): ToolResultPart[] {
  if (message.role !== 'tool') return [];
  return (message.content as ReadonlyArray<{ type: string }>).filter(
    (part): part is ToolResultPart => part.type === 'tool-result',
  );
}

/** Whether a message is the one a compaction put first. */
export function isCompactionMessage(message: ModelMessage): boolean {
  if (message.role !== 'user') return false;
  const [first] = messageTexts(message);
  return first?.startsWith(BOUNDARY_PREFIX) === true;
}

/** The index of the last message a compaction put first, or -1. */
export function lastCompactionIndex(messages: readonly ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1)
    if (isCompactionMessage(messages[index] as ModelMessage)) return index;
  return -1;
}

/** The tool calls of an assistant message, by id. */
export function toolCallIds(message: ModelMessage): string[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return (message.content as ReadonlyArray<{ type: string; toolCallId?: string }>)
    .filter((part) => part.type === 'tool-call' && typeof part.toolCallId === 'string')
    .map((part) => part.toolCallId as string);
}
