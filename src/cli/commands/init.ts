import { MAX_NAME_LENGTH, SkillhostError, validateSkillPaths } from '../../node/index.js';
import { writeFileAtomically } from '../../node/internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, formatDiagnostic, printable } from '../format.js';
import { projectContext } from '../installed.js';
import { createStyle } from '../style.js';

/** A name every client takes: lower-case ASCII letters and digits in words joined by single hyphens. */
const PORTABLE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A description as YAML: plain when it can be, else double-quoted (JSON's quoting is YAML's). */
function yamlString(text: string): string {
  return /^[A-Za-z0-9][^:#'"\n\\{}[\],&*!|>%@`]*$/.test(text) && !/\s$/.test(text)
    ? text
    : JSON.stringify(text);
}

function files(name: string, description: string): Record<string, { text: string; mode: number }> {
  const skill = `---
name: ${name}
description: ${yamlString(description)}
---

# ${name}

How to finish this skill:

1. Rewrite the description above. An agent sees only the name and the
   description until it activates the skill, so say what the skill does and
   when to use it (at most 1024 characters).
2. Write the instructions here, in Markdown: the steps, an example, the edge
   cases. Keep this file short (under 500 lines); put long material in
   [references/REFERENCE.md](references/REFERENCE.md) and say when to read it.
3. Put the scripts the instructions run in scripts/ (see
   [scripts/example.sh](scripts/example.sh)); they run in a sandbox, after
   the user approves them. Templates and data files go in assets/.
4. Check the skill with \`skillhost validate\` on this folder.
`;
  return {
    'SKILL.md': { text: skill, mode: 0o644 },
    'scripts/example.sh': {
      text: `#!/bin/sh\n# An example script: skillhost run ${name} scripts/example.sh -- WORDS\necho "${name} says: $*"\n`,
      mode: 0o755,
    },
    'references/REFERENCE.md': {
      text: `# ${name}: reference\n\nLonger documentation the instructions point to: read only when needed.\n`,
      mode: 0o644,
    },
    'assets/.gitkeep': { text: '', mode: 0o644 },
  };
}

/** `skillhost init NAME [--dir DIR]`: a new skill that passes strict validation. */
export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    dir: { type: 'string' },
    description: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (args.positionals.length !== 1) throw new UsageError('init takes exactly one NAME');
  const name = args.positionals[0] as string;
  if (name.length > MAX_NAME_LENGTH || !PORTABLE_NAME.test(name))
    throw new UsageError(
      `'${printable(name)}' cannot name a skill: use lower-case letters, digits and single hyphens inside (at most ${MAX_NAME_LENGTH} characters), e.g. pdf-tools`,
    );
  const description = String(
    args.options.description ??
      `Describe what ${name} does and when to use it. Use when the user asks for ${name.replace(/-/g, ' ')}.`,
  );
  const parent =
    args.options.dir === undefined
      ? deps.resolvePath(projectContext(deps).projectDir, '.agents/skills')
      : deps.resolvePath(deps.cwd, String(args.options.dir));
  const directory = deps.resolvePath(parent, name);
  if (deps.fs.status(directory, false) !== undefined)
    throw new SkillhostError('SKILL_EXISTS', `${directory} already exists`, {
      details: { path: directory },
    });
  for (const [path, file] of Object.entries(files(name, description)))
    writeFileAtomically(deps.resolvePath(directory, path), file.text, file.mode);
  const report = validateSkillPaths([directory], { fs: deps.fs, mode: 'strict' });
  const check = report.results[0];
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify({ skill: name, directory, valid: check?.valid === true, diagnostics: check?.diagnostics ?? [] }, null, 2)}\n`,
    );
  } else {
    const style = createStyle(io.stdout, deps.env);
    for (const diagnostic of check?.diagnostics ?? [])
      io.stdout.write(
        `${formatDiagnostic(diagnostic, check?.excerpts.get(diagnostic.line), deps.cwd, style)}\n`,
      );
    io.stdout.write(
      `Created ${printable(displayPath(directory, deps.cwd))}/ with SKILL.md, scripts/example.sh, references/REFERENCE.md and assets/.\nNext: edit its description and instructions, then run skillhost validate ${printable(displayPath(directory, deps.cwd))}\n`,
    );
  }
  return check?.valid === true ? 0 : 1;
}
