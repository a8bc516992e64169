import type * as Yaml from 'yaml';

/** The parts of the `yaml` package the frontmatter parser uses. */
export type YamlEngine = Pick<
  typeof Yaml,
  'parseDocument' | 'isAlias' | 'isMap' | 'isScalar' | 'isSeq'
>;

/**
 * The YAML library, or a function that loads it (called only when a frontmatter needs more than
 * the fast scanner: most never do, and loading it costs ~30 ms and ~9 MB). The `skillhost` and
 * `skillhost/node` entries pass one for you.
 */
export type YamlSource = YamlEngine | (() => YamlEngine);

/** The engine of a source, loading it if needed; undefined when none was given. */
export function resolveYamlEngine(source: YamlSource | undefined): YamlEngine | undefined {
  return typeof source === 'function' ? source() : source;
}
