import type * as Yaml from 'yaml';

/** The parts of the `yaml` package the frontmatter parser uses. */
export type YamlEngine = Pick<
  typeof Yaml,
  'parseDocument' | 'isAlias' | 'isMap' | 'isScalar' | 'isSeq'
>;

let engine: YamlEngine | undefined;
let loader: (() => YamlEngine) | undefined;

/** Gives the parser the YAML library (the `skillhost` entry does this when it loads). */
export function registerYamlEngine(value: YamlEngine): void {
  engine = value;
}

/**
 * Gives the parser a way to load the YAML library when it first needs it, synchronously
 * (`skillhost/node` does this): most frontmatter never needs it, and it costs ~30 ms and ~9 MB.
 */
export function registerYamlLoader(load: () => YamlEngine): void {
  loader = load;
}

/** The YAML library, loaded on first use; undefined when none was registered. */
export function yamlEngine(): YamlEngine | undefined {
  if (engine === undefined && loader !== undefined) engine = loader();
  return engine;
}
