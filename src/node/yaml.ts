import { createRequire } from 'node:module';
import type { YamlEngine } from '../core.js';

let engine: YamlEngine | undefined;

/**
 * Loads the `yaml` package on first call, synchronously, and keeps it: a `YamlSource` for any
 * `yaml` option. Most frontmatter never needs it (the fast scanner reads it), and loading it
 * costs ~30 ms and ~9 MB, so `skillhost/node` passes this loader rather than the library.
 */
export function loadYaml(): YamlEngine {
  engine ??= createRequire(import.meta.url)('yaml') as YamlEngine;
  return engine;
}
