import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'adapters', 'golden');

/**
 * A golden file of test/adapters/golden/: the tool definitions of the report world (the skills
 * `other` and `tool`) written by hand in the shape each vendor documents, never computed from
 * the adapter under test.
 */
export function golden(name: string): unknown {
  return JSON.parse(readFileSync(join(folder, name), 'utf8'));
}
