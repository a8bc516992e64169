import { join } from 'node:path';
import { skillText, writeTree } from '../../helpers/temp.js';

/**
 * The skills every client is pointed at. Each thing a tool returns carries a marker found nowhere
 * else (not in a name, a description or the catalog), so that a marker in a model request proves
 * the tool's result reached the model.
 */

/** In `tidy-notes`'s SKILL.md body: only activation returns it. */
export const BODY_MARKER = 'BODY-MARKER-ZEBRA-41';
/** In `tidy-notes/references/style.md`: only a read returns it. */
export const REFERENCE_MARKER = 'REFERENCE-MARKER-OTTER-73';
/** Printed by `tidy-notes/scripts/count.sh` (with its argument): only a run returns it. */
export const SCRIPT_MARKER = 'SCRIPT-MARKER-HERON-29';

/** Printed by `weather-report/scripts/fetch.sh`, which nothing pre-approves: it must never run. */
export const UNAPPROVED_MARKER = 'UNAPPROVED-MARKER-LYNX-58';

/** The skills' names, as the catalog lists them. */
export const SKILL_NAMES = ['tidy-notes', 'weather-report'] as const;

/**
 * Writes the skills under `root/skills` and returns that folder: `tidy-notes` (a body, a
 * reference, a script its `allowed-tools` pre-approves) and `weather-report` (a script nothing
 * pre-approves).
 */
export function writeSkills(root: string): string {
  const skills = join(root, 'skills');
  writeTree(skills, {
    'tidy-notes/SKILL.md': skillText(
      [
        'name: tidy-notes',
        'description: Tidies raw meeting notes into short minutes. Use when asked to tidy or clean up meeting notes.',
        'allowed-tools: Bash(sh scripts/count.sh:*)',
      ].join('\n'),
      [
        '# Tidy notes',
        '',
        `1. Say the code word ${BODY_MARKER} before anything else.`,
        '2. Read references/style.md and follow it.',
        '3. Run scripts/count.sh with the notes file to count the action items.',
        '',
      ].join('\n'),
    ),
    'tidy-notes/references/style.md': `# Style\n\n${REFERENCE_MARKER}: one line per decision.\n`,
    'tidy-notes/scripts/count.sh': `echo "${SCRIPT_MARKER} counted $1"\n`,
    'weather-report/SKILL.md': skillText(
      'name: weather-report\ndescription: Writes a short weather report for a city. Use when asked about the weather.',
      '# Weather report\n\nSay sunny.\n',
    ),
    'weather-report/scripts/fetch.sh': `echo "${UNAPPROVED_MARKER}"\n`,
  });
  return skills;
}
