export interface SkillFixtureOptions {
  /** The `name` field, written as given (raw YAML). */
  readonly name: string;
  /** The `description` field, written as given; default `Does NAME things. Use when asked.` */
  readonly description?: string;
  /** More frontmatter lines, written as given, e.g. `allowed-tools: Bash(sh scripts/run.sh:*)`. */
  readonly frontmatter?: string | readonly string[];
  /** The Markdown after the frontmatter; default a title and one instruction. */
  readonly body?: string;
  /** Other files of the skill, by path relative to the skill folder. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** The skill folder's name; default `name`. Pass '' to put the files at the top. */
  readonly folder?: string;
}

const DEFAULT_BODY = '# Title\n\nDo the thing.\n';

/**
 * The files of one skill folder, as a map of relative path to content: write it to a temporary
 * folder, or give it to `createMemoryFileSystem`. Spread several into one map for a skills folder.
 *
 * @example skillFixture({ name: 'pdf', frontmatter: 'license: MIT', files: { 'scripts/run.sh': 'echo hi\n' } })
 * // { 'pdf/SKILL.md': '---\nname: pdf\n...', 'pdf/scripts/run.sh': 'echo hi\n' }
 */
export function skillFixture(options: SkillFixtureOptions): Record<string, string | Uint8Array> {
  const folder = options.folder ?? options.name;
  const prefix = folder === '' ? '' : `${folder.replace(/\/+$/, '')}/`;
  const extra =
    options.frontmatter === undefined
      ? []
      : typeof options.frontmatter === 'string'
        ? [options.frontmatter]
        : options.frontmatter;
  const lines = [
    `name: ${options.name}`,
    `description: ${options.description ?? `Does ${options.name} things. Use when asked.`}`,
    ...extra.map((line) => line.replace(/\n+$/, '')),
  ];
  const files: Record<string, string | Uint8Array> = {
    [`${prefix}SKILL.md`]: `---\n${lines.join('\n')}\n---\n${options.body ?? DEFAULT_BODY}`,
  };
  for (const [path, content] of Object.entries(options.files ?? {})) {
    files[`${prefix}${path}`] = content;
  }
  return files;
}
