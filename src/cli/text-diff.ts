/**
 * A unified diff of two texts that differ in one region (what a merge into a configuration file
 * makes): the common first and last lines are kept out, the rest is shown as removed and added
 * lines, with up to `context` unchanged lines around. Empty when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, label: string, context = 3): string {
  if (before === after) return '';
  const old = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const next = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < next.length - head &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail += 1;
  const from = Math.max(0, head - context);
  const oldEnd = old.length - tail;
  const newEnd = next.length - tail;
  const until = Math.min(context, tail);
  const lines = [
    `--- ${label}${before === '' ? ' (new file)' : ''}`,
    `+++ ${label}`,
    `@@ -${from + 1},${oldEnd - from + until} +${from + 1},${newEnd - from + until} @@`,
    ...old.slice(from, head).map((line) => ` ${line}`),
    ...old.slice(head, oldEnd).map((line) => `-${line}`),
    ...next.slice(head, newEnd).map((line) => `+${line}`),
    ...old.slice(oldEnd, oldEnd + until).map((line) => ` ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}
