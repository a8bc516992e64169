import { diffLines } from '../internal.js';

/**
 * A unified diff of two texts with `---`/`+++` headers naming `label` (the hunks are the one
 * diff the project has, `diffLines`, as `update` shows a SKILL.md). Empty when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return '';
  const lines = [
    `--- ${label}${before === '' ? ' (new file)' : ''}`,
    `+++ ${label}`,
    ...diffLines(before, after),
  ];
  return `${lines.join('\n')}\n`;
}
