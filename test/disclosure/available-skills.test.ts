import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableSkillXml, escapeXmlText } from '../../src/disclosure/available-skills.js';

/** Python's html.escape(text, quote=True), written the slow way: one character at a time. */
function htmlEscape(text: string): string {
  const table: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#x27;',
  };
  let out = '';
  for (const character of text) out += table[character] ?? character;
  return out;
}

describe('escapeXmlText', () => {
  it('escapes as html.escape with quotes does, and returns other text as it is', () => {
    for (const text of ['', 'plain text', '&', '<a href="x">', "it's", 'a & b & c', '&amp;']) {
      expect(escapeXmlText(text)).toBe(htmlEscape(text));
    }
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', ' ', '\u00e9') }),
        (text) => escapeXmlText(text) === htmlEscape(text),
      ),
    );
  });

  it('escapes every field of an entry', () => {
    expect(
      availableSkillXml({ name: 'a<b', description: 'x & "y"', location: "/p/'q'/SKILL.md" }),
    ).toBe(
      '<skill>\n<name>\na&lt;b\n</name>\n<description>\nx &amp; &quot;y&quot;\n</description>\n<location>\n/p/&#x27;q&#x27;/SKILL.md\n</location>\n</skill>',
    );
  });
});
