// Generates synthetic trees of skills for benchmarks. Two kinds: 'plain' (each skill a directory
// with a SKILL.md of about 60 lines / 2.3 KB and a references/ file its body links to) and 'rich'
// (the optional fields real skills use: a folded description, compatibility, allowed-tools,
// metadata of several keys with quoted values, and links to several files in the body).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const topics = ['pdf', 'csv', 'image', 'audio', 'git', 'docker', 'sql', 'api', 'test', 'deploy'];
const verbs = [
  'analyse',
  'convert',
  'summarise',
  'validate',
  'render',
  'migrate',
  'audit',
  'index',
];

function skillText(index) {
  const topic = topics[index % topics.length];
  const verb = verbs[index % verbs.length];
  const name = `${verb}-${topic}-${String(index).padStart(5, '0')}`;
  const lines = [
    '---',
    `name: ${name}`,
    `description: ${verb[0].toUpperCase()}${verb.slice(1)} ${topic} files and report what changed, with a short summary table. Use when the user asks to ${verb} ${topic} data or mentions ${topic} tooling.`,
    'license: Apache-2.0',
    'metadata:',
    '  author: bench-team',
    `  version: "1.${index % 10}"`,
    '---',
    '',
    `# ${verb} ${topic}`,
    '',
    '## When to use this skill',
    '',
    `Use this skill when a task involves ${topic} inputs that need to be ${verb}d before`,
    'further processing, or when the user explicitly asks for it. It is not meant for one-off',
    'questions about a single value; answer those directly without loading anything else.',
    '',
    '## Steps',
    '',
    `1. Read [the guide](references/guide.md) for the ${topic} conventions of this project.`,
    '2. Collect the input files and check that each one can be opened.',
    `3. Run the ${verb} step on each file, one at a time, and keep a log.`,
    '4. Compare the result with the original and note every difference.',
    '5. Summarise the differences in a short table for the user.',
    '6. Ask before overwriting anything that already exists in the output folder.',
    '',
    '## Output format',
    '',
    '| file | status | notes |',
    '| --- | --- | --- |',
    '| input.ext | ok | nothing to report |',
    '',
    '## Example',
    '',
    '```bash',
    `tool ${verb} --input data.${topic} --output out.${topic}`,
    `tool check out.${topic}`,
    '```',
    '',
    '## Edge cases',
    '',
    '- Empty inputs: report them and continue with the next file.',
    '- Very large inputs: process them in chunks of a few megabytes.',
    '- Unknown encodings: stop and ask the user which encoding to assume.',
    '- Permission errors: list the files that could not be read.',
    '- Duplicate names: keep both and add a numeric suffix to the second one.',
    '- Interrupted runs: resume from the log instead of starting over from the beginning.',
    '',
    '## Checklist',
    '',
    '- [ ] Every input was read',
    '- [ ] Every output was written',
    '- [ ] The summary table lists every file',
    '- [ ] The log is attached',
    '',
    '## Notes',
    '',
    `Keep the ${topic} files unchanged until the user confirms the result. When in doubt,`,
    'prefer a dry run and show what would change. Never delete inputs, and never send them',
    'anywhere outside the working folder without asking the user first.',
    '',
    'See the reference guide for naming rules and the list of supported formats; it also',
    'explains how to report partial failures so that nothing is lost between runs, and how to',
    'record the versions of the tools used so that a later run can reproduce the same result.',
    '',
  ];
  return { name, text: lines.join('\n') };
}

const tools = [
  'Bash(git:*)',
  'Read',
  'Write',
  'Edit',
  'Grep',
  'Glob',
  'Bash(python3:*)',
  'WebFetch',
];

/** A skill as real ones are written: most optional fields, folded text, several links. */
function richSkillText(index) {
  const topic = topics[index % topics.length];
  const verb = verbs[(index * 3) % verbs.length];
  const name = `${topic}-${verb}-${String(index).padStart(5, '0')}`;
  const allowed = tools.filter((_, position) => (index + position) % 3 !== 0).join(' ');
  const lines = [
    '---',
    `name: ${name}`,
    index % 2 === 0 ? 'description: >-' : 'description: >',
    `  ${verb[0].toUpperCase()}${verb.slice(1)} ${topic} files: reads each input, applies the`,
    `  project's conventions and writes a report with every change. Use when the user asks`,
    `  to ${verb} ${topic} data, mentions "${topic} tooling", or shares a .${topic} file.`,
    'license: Complete terms in LICENSE.txt',
    `compatibility: Requires python3 and git; network access for ${topic} lookups is optional.`,
    `allowed-tools: ${allowed}`,
    'metadata:',
    '  author: "Example Corp: platform team"',
    `  version: "${1 + (index % 4)}.${index % 10}.0"`,
    `  category: ${topic}`,
    `  short-description: '${verb} ${topic} inputs, with a report'`,
    '---',
    '',
    `# ${topic} ${verb}`,
    '',
    `Start with [the overview](references/overview.md), then [the rules](references/rules.md).`,
    `Scripts: [\`${verb}.py\`](scripts/${verb}.py) does the work; see also`,
    `[the upstream docs](https://example.com/${topic}/${verb}) and [a template](assets/template.md).`,
    '',
    '## Workflow',
    '',
    `1. Read every input and check it parses as ${topic}.`,
    `2. Run \`python3 scripts/${verb}.py --input <file>\` on each one.`,
    '3. Compare the output with the input; list every difference in the report.',
    '4. Ask before overwriting files in the output folder.',
    '',
    '## Report',
    '',
    '| file | status | notes |',
    '| --- | --- | --- |',
    '| input.ext | ok | nothing to report |',
    '',
    '## Rules',
    '',
    '- Never delete inputs; never send them outside the working folder without asking.',
    '- Keep a log of each step so that an interrupted run can resume.',
    `- Use the naming rules of [the rules](references/rules.md#naming) for every output.`,
    '- Report partial failures: nothing is lost between runs.',
    '',
    '```python',
    `# python3 scripts/${verb}.py --input data.${topic}`,
    'import sys',
    'print(sys.argv)',
    '```',
    '',
  ];
  return { name, text: lines.join('\n') };
}

const KINDS = {
  plain: {
    text: skillText,
    files: (name) => [
      ['references/guide.md', `# Guide for ${name}\n\nNaming rules and supported formats.\n`],
    ],
  },
  rich: {
    text: richSkillText,
    files: (name) => [
      ['references/overview.md', `# Overview of ${name}\n`],
      ['references/rules.md', `# Rules\n\n## Naming\n\nLower case, hyphens.\n`],
      [`scripts/${name.split('-')[1]}.py`, 'import sys\nprint(sys.argv)\n'],
      ['assets/template.md', '# Report\n'],
      ['LICENSE.txt', 'Example licence terms.\n'],
    ],
  },
};

/**
 * Creates (or reuses) a tree of `count` skills of `kind` ('plain' or 'rich') under `base`;
 * returns its path. A finished tree carries a marker, so later runs reuse it.
 */
export function generateTree(base, count, kind = 'plain') {
  const make = KINDS[kind];
  if (make === undefined) throw new Error(`unknown tree kind '${kind}'`);
  const root = join(base, kind === 'plain' ? `skills-${count}` : `${kind}-skills-${count}`);
  const marker = join(root, '.complete');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(count)) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    const { name, text } = make.text(index);
    const directory = join(root, name);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'SKILL.md'), text);
    for (const [file, content] of make.files(name)) {
      mkdirSync(dirname(join(directory, file)), { recursive: true });
      writeFileSync(join(directory, file), content);
    }
  }
  writeFileSync(marker, String(count));
  return root;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2] ?? '.bench-cache';
  const count = Number(process.argv[3] ?? 1000);
  console.log(generateTree(base, count, process.argv[4] ?? 'plain'));
}
