/**
 * skillhost — the runtime-neutral core. Every export is public API (see core.ts, the curated
 * list). Nothing reachable from this entry imports `node:*`. This entry loads the YAML library
 * at once; `skillhost/node` loads it only when a frontmatter needs more than the fast scanner.
 */
import * as yaml from 'yaml';
import { registerYamlEngine } from './format/yaml-engine.js';

registerYamlEngine(yaml);

export * from './core.js';
