import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/policy/command.js';
import { parseShell } from '../../src/policy/shell-syntax.js';

/** Each command the reader finds: where it runs, and its words (`<...>` when not literal). */
function commands(line: string): string[] {
  return parseShell(line).commands.map(
    (command) =>
      `${command.where}: ${command.words.map((word) => (word.literal ? word.text : `<${word.text}>`)).join(' ')}`,
  );
}

describe('the shell reader', () => {
  it('removes quotes as bash does', () => {
    const cases: Array<[string, string[]]> = [
      [`'curl' x`, ['curl', 'x']],
      [`c\\url x`, ['curl', 'x']],
      [`cu''rl "x y"`, ['curl', 'x y']],
      [`$'\\x63url' $'a\\tb'`, ['curl', 'a\tb']],
      [`$'\\143url' $'\\u0063'`, ['curl', 'c']],
      [`"c\\url"`, ['c\\url']],
      [`"a\\"b" 'it''s'`, ['a"b', 'its']],
      [`a\\\nb`, ['ab']],
      [`$"curl"`, ['curl']],
    ];
    for (const [line, words] of cases) {
      const parsed = parseShell(line);
      expect(
        parsed.commands[0]?.words.map((word) => word.text),
        line,
      ).toEqual(words);
      expect(parsed.opaque, line).toEqual([]);
    }
  });

  it('finds the commands of chains, pipes, substitutions, subshells and compound commands', () => {
    expect(commands('git status && rm -rf / ; ls | wc -l')).toEqual([
      'the command: git status',
      'the command: rm -rf /',
      'the command: ls',
      'the command: wc -l',
    ]);
    expect(commands('echo $(echo `curl x`)')).toEqual([
      'a command substitution: curl x',
      'a command substitution: echo <`…`>',
      'the command: echo <$(…)>',
    ]);
    expect(commands('cat <(curl a) >(wget b)')).toContain('a process substitution: curl a');
    expect(commands('(curl a); { wget b; }')).toEqual([
      'a subshell: curl a',
      'the command: wget b',
    ]);
    expect(commands('if curl a; then wget b; elif nc c; else ssh d; fi')).toEqual([
      'the command: curl a',
      'the command: wget b',
      'the command: nc c',
      'the command: ssh d',
    ]);
    expect(commands('for i in $(curl a); do wget $i; done')).toEqual([
      'a command substitution: curl a',
      'the command: wget <$i>',
    ]);
    expect(commands('case $x in a|b) curl x;; (c) wget y;; esac; ls')).toEqual([
      'the command: curl x',
      'the command: wget y',
      'the command: ls',
    ]);
    expect(commands('f() { curl x; }; f')).toEqual(['the command: curl x', 'the command: f']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    const expansion = 'echo ${x:-$(curl a)} "$(wget b)"';
    expect(commands(expansion)).toEqual([
      'a command substitution: curl a',
      'a command substitution: wget b',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the reader's text for ${...}
      'the command: echo <${…}> <$(…)>',
    ]);
    expect(commands('x=$(curl a) git status')).toEqual([
      'a command substitution: curl a',
      'the command: git status',
    ]);
  });

  it('reads here-documents: an unquoted delimiter expands the body, a quoted one does not', () => {
    expect(commands('cat <<EOF\nhello $(curl x)\nEOF\necho done')).toEqual([
      'the command: cat',
      'a command substitution: curl x',
      'the command: echo done',
    ]);
    expect(commands("cat <<'EOF'\ncurl $(wget x)\nEOF\n")).toEqual(['the command: cat']);
    expect(commands('cat <<-EOF\n\tcurl x\n\tEOF\nls')).toEqual([
      'the command: cat',
      'the command: ls',
    ]);
  });

  it('keeps redirection targets and assignments out of the words', () => {
    const parsed = parseShell('A=1 git log 2>/dev/null >out <in &>all');
    expect(parsed.commands[0]?.words.map((word) => word.text)).toEqual(['git', 'log']);
    expect(parsed.commands[0]?.assignments.map((word) => word.text)).toEqual(['A=1']);
    expect(parsed.problems).toEqual(
      expect.arrayContaining(['a redirection', 'an environment assignment']),
    );
    // A quoted name is not an assignment.
    expect(parseShell("'A'=1 x").commands[0]?.words.map((word) => word.text)).toEqual(['A=1', 'x']);
  });

  it('marks words only known at run time, and never a literal find {} or git @{1}', () => {
    const words = (line: string) =>
      parseShell(line).commands[0]?.words.map((word) => [word.text, word.literal]);
    expect(words('c{u,}rl x')).toEqual([
      ['c{u,}rl', false],
      ['x', true],
    ]);
    expect(words('ls *.md ~/x a[1]')?.map(([, literal]) => literal)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(words('find . -exec rm {} \\;')?.every(([, literal]) => literal)).toBe(true);
    expect(words('git show HEAD@{1}')?.every(([, literal]) => literal)).toBe(true);
  });

  it('reports what it cannot follow as opaque, and never throws', () => {
    for (const line of [
      "echo 'unclosed",
      'echo "unclosed',
      'echo $(unclosed',
      'echo `unclosed',
      'echo )',
      'echo $((x + $(curl y)))',
      '[[ $a -eq 1 ]]',
      '$cmd arg',
      'a ?(b)',
    ]) {
      const parsed = parseShell(line);
      expect(parsed.opaque.length + parsed.commands.length, line).toBeGreaterThan(0);
      if (line !== '$cmd arg') expect(parsed.opaque.length, line).toBeGreaterThan(0);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (line) => {
        const parsed = parseShell(line);
        expect(Array.isArray(parsed.commands)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('stays linear and never throws on hostile sizes: deep nesting is opaque', () => {
    for (const line of [
      `echo ${'$('.repeat(3000)}curl${')'.repeat(3000)}`,
      `${'('.repeat(3000)}curl${')'.repeat(3000)}`,
      `echo ${'`echo '.repeat(300)}`,
      `echo x{${','.repeat(20000)}}`,
      `echo ${'['.repeat(20000)}]`,
    ]) {
      const parsed = parseShell(line);
      expect(parsed.problems.length, line.slice(0, 20)).toBeGreaterThan(0);
    }
    // No closing brace or bracket: plain words, read in one pass.
    expect(parseShell(`echo x{${','.repeat(20000)}`).problems).toEqual([]);
    expect(parseShell(`echo ${'$('.repeat(3000)}x${')'.repeat(3000)}`).opaque).toContain(
      'nesting too deep to follow',
    );
  });

  it('keeps parseCommand: the segments of the line and why it is not plain', () => {
    expect(parseCommand('git add . && git commit -m "x; y"')).toEqual({
      segments: [
        ['git', 'add', '.'],
        ['git', 'commit', '-m', 'x; y'],
      ],
      unsafe: [],
    });
    expect(parseCommand('git log $(id)').unsafe).toContain('a substitution or expansion');
  });
});

function bashWords(line: string): string[] | undefined {
  try {
    const output = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
    return output.split('\0').slice(0, -1);
  } catch {
    return undefined;
  }
}

describe.runIf(bashWords('a') !== undefined)('the shell reader against bash', () => {
  it('splits and unquotes words as bash does', () => {
    const pieces = [
      "'a b'",
      '"c d"',
      'e\\ f',
      "$'g\\x41'",
      "h''i",
      '"j\\"k"',
      '\\$l',
      "'m\"n'",
      '"o\\p"',
      "$'\\u00e9'",
      'q\\\\r',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 5 }),
        (chosen) => {
          const line = chosen.join(' ');
          const expected = bashWords(line);
          const words = parseShell(`x ${line}`)
            .commands[0]?.words.slice(1)
            .map((word) => word.text);
          expect(words, line).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
