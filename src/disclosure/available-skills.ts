/** One entry of the `<available_skills>` block. */
export interface AvailableSkillEntry {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the skill's SKILL.md. */
  readonly location: string;
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

const special = /[&<>"']/;
const specials = /[&<>"']/g;

/** Escapes text for XML exactly as Python's `html.escape(text, quote=True)` does. */
export function escapeXmlText(text: string): string {
  // Most text has nothing to escape: a test costs less than a replace that finds nothing.
  return special.test(text)
    ? text.replace(specials, (character) => escapes[character] as string)
    : text;
}

/**
 * The `<available_skills>` XML block, byte for byte what the reference validator's `to-prompt`
 * prints (without the final newline): one tag or value per line, no indentation.
 */
export function renderAvailableSkillsXml(entries: readonly AvailableSkillEntry[]): string {
  let text = '<available_skills>';
  for (const entry of entries) text += `\n${availableSkillXml(entry)}`;
  return `${text}\n</available_skills>`;
}

/** One `<skill>` element of the block, as `renderAvailableSkillsXml` writes it. */
export function availableSkillXml(entry: AvailableSkillEntry): string {
  return `<skill>\n<name>\n${escapeXmlText(entry.name)}\n</name>\n<description>\n${escapeXmlText(entry.description)}\n</description>\n<location>\n${escapeXmlText(entry.location)}\n</location>\n</skill>`;
}
