import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { replaceTomlTables, tomlKey, tomlString } from '../../src/cli/toml-edit.js';

const OURS = '[mcp_servers.skillhost]\ncommand = "node"\n';

describe('replaceTomlTables: one entry replaced, the rest kept byte for byte', () => {
  it('appends the tables to a file that has none, after a blank line', () => {
    expect(replaceTomlTables('', ['mcp_servers', 'skillhost'], OURS)).toBe(OURS);
    expect(replaceTomlTables('model = "o3"', ['mcp_servers', 'skillhost'], OURS)).toBe(
      `model = "o3"\n\n${OURS}`,
    );
  });

  it('replaces the entry and its sub-tables where they were, keeping comments and others', () => {
    const text = [
      '# my settings',
      'model = "gpt-5"  # the default',
      '',
      '[mcp_servers.docs]',
      'command = "docs"',
      'args = [',
      '  "--a", # one',
      '  "--b",',
      ']',
      '',
      '[mcp_servers.skillhost]',
      'command = "old"',
      'args = ["x"]',
      '',
      '[mcp_servers.skillhost.tools.skillhost_run]',
      'approval_mode = "approve"',
      '',
      '[profiles.fast]',
      "note = '''",
      '[mcp_servers.skillhost]',
      "not a table: inside a string'''",
      'retries = 3',
      'when = 1979-05-27 07:32:00Z',
      'inline = { a = 1, b = "}" }',
      '',
    ].join('\n');
    const result = replaceTomlTables(text, ['mcp_servers', 'skillhost'], OURS);
    expect(result).toBe(
      [
        '# my settings',
        'model = "gpt-5"  # the default',
        '',
        '[mcp_servers.docs]',
        'command = "docs"',
        'args = [',
        '  "--a", # one',
        '  "--b",',
        ']',
        '',
        '[mcp_servers.skillhost]',
        'command = "node"',
        '',
        '[profiles.fast]',
        "note = '''",
        '[mcp_servers.skillhost]',
        "not a table: inside a string'''",
        'retries = 3',
        'when = 1979-05-27 07:32:00Z',
        'inline = { a = 1, b = "}" }',
        '',
      ].join('\n'),
    );
    // Replacing again changes nothing.
    expect(replaceTomlTables(result, ['mcp_servers', 'skillhost'], OURS)).toBe(result);
  });

  it('matches quoted header keys as the same key', () => {
    const text = '["mcp_servers"."skillhost"]\ncommand = "old"\n';
    expect(replaceTomlTables(text, ['mcp_servers', 'skillhost'], OURS)).toBe(OURS);
  });

  it('refuses what it cannot follow, or an entry written another way, saying where', () => {
    const cases: Array<[string, RegExp]> = [
      ['model = "unclosed\n', /line 1: a string is not closed on its line/],
      ['[mcp_servers.x\ncommand = "a"\n', /line 1: a table header is not closed/],
      ['just words\n', /= is expected after a key/],
      ['args = [1, 2\n', /an array is not closed/],
      ["note = '''never closed\n", /a string is not closed/],
      ['[mcp_servers]\nskillhost = { command = "a" }\n', /inline table/],
      ['mcp_servers.skillhost.command = "a"\n', /dotted keys/],
      ['[[mcp_servers.skillhost]]\ncommand = "a"\n', /array of tables/],
    ];
    for (const [text, message] of cases)
      expect(() => replaceTomlTables(text, ['mcp_servers', 'skillhost'], OURS), text).toThrow(
        message,
      );
  });

  it('writes strings and keys TOML reads back (JSON escapes are TOML escapes)', () => {
    // A TOML basic string of these characters is also a YAML double-quoted scalar.
    for (const value of ['plain', 'a "quoted" \\ path', 'tab\there', 'line\nbreak', 'é ✓'])
      expect(parseYaml(tomlString(value))).toBe(value);
    expect(tomlKey('skillhost')).toBe('skillhost');
    expect(tomlKey('my server')).toBe('"my server"');
  });
});
