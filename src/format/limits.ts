/** Limits from the Agent Skills specification. They are rules, not settings. */
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** The six frontmatter fields the specification defines. */
export const SPEC_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
]);

/** Fields that some clients understand; reported as portability warnings when loading leniently. */
export const CLIENT_SPECIFIC_FIELDS: ReadonlySet<string> = new Set([
  'when_to_use',
  'when-to-use',
  'disable-model-invocation',
  'user-invocable',
  'argument-hint',
  'model',
  'context',
  'agent',
  'hooks',
  'version',
  'mode',
]);

/** Recommendations from the specification, reported as portability warnings. */
export const RECOMMENDED_MAX_BODY_LINES = 500;
export const RECOMMENDED_MAX_BODY_TOKENS = 5000;

/** Defaults that callers may change: bounds that keep hostile input cheap. */
export interface ReadLimits {
  /** Largest SKILL.md read, in bytes. */
  readonly maxSkillFileBytes: number;
  /** Largest frontmatter handed to the YAML parser, in bytes. */
  readonly maxFrontmatterBytes: number;
  /** Deepest nesting of YAML collections accepted in the frontmatter. */
  readonly maxYamlDepth: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({
  maxSkillFileBytes: 256 * 1024,
  maxFrontmatterBytes: 64 * 1024,
  maxYamlDepth: 32,
});
