// The I/O floor: list the whole tree and read every SKILL.md, parsing nothing. The same walk
// rules as skillhost (sorted, .git and node_modules skipped, links not followed).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
let files = 0;
let bytes = 0;
function walk(directory) {
  const entries = readdirSync(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (entry.name !== '.git' && entry.name !== 'node_modules') walk(join(directory, entry.name));
    } else if (entry.name === 'SKILL.md' && entry.isFile()) {
      bytes += readFileSync(join(directory, entry.name)).length;
      files += 1;
    }
  }
}
walk(root);
process.stdout.write(`${files} files, ${bytes} bytes\n`);
