// Generates a synthetic tree of skills for benchmarks: each skill is a directory with a
// SKILL.md of about 60 lines / 2.3 KB and a references/ file that its body links to.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Creates (or reuses) a tree of `count` skills under `base`; returns its path. */
export function generateTree(base, count) {
  const root = join(base, `skills-${count}`);
  const marker = join(root, '.complete');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(count)) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    const { name, text } = skillText(index);
    const directory = join(root, name);
    mkdirSync(join(directory, 'references'), { recursive: true });
    writeFileSync(join(directory, 'SKILL.md'), text);
    writeFileSync(
      join(directory, 'references', 'guide.md'),
      `# Guide for ${name}\n\nNaming rules and supported formats.\n`,
    );
  }
  writeFileSync(marker, String(count));
  return root;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2] ?? '.bench-cache';
  const count = Number(process.argv[3] ?? 1000);
  console.log(generateTree(base, count));
}
