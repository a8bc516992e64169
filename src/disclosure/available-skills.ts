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

/** Escapes text for XML exactly as Python's `html.escape(text, quote=True)` does. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] as string);
}

/**
 * The `<available_skills>` XML block, byte for byte what the reference validator's `to-prompt`
 * prints (without the final newline): one tag or value per line, no indentation.
 */
export function renderAvailableSkillsXml(entries: readonly AvailableSkillEntry[]): string {
  if (entries.length === 0) return '<available_skills>\n</available_skills>';
  const lines = ['<available_skills>'];
  for (const entry of entries) {
    lines.push(
      '<skill>',
      '<name>',
      escapeXmlText(entry.name),
      '</name>',
      '<description>',
      escapeXmlText(entry.description),
      '</description>',
      '<location>',
      escapeXmlText(entry.location),
      '</location>',
      '</skill>',
    );
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}
