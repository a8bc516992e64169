/**
 * skillhost — the runtime-neutral core. Every line exported here is public API: adding an export
 * is a deliberate act. Nothing reachable from this file imports `node:*`.
 */

export { CODES, type Code, type CodeCategory, type CodeInfo, describeCode } from './codes.js';
export type {
  DirectoryEntry,
  EntryKind,
  FileStatus,
  ListProblem,
  ListResult,
  ReadProblem,
  ReadResult,
  ReadWithinOptions,
  SkillFileSystem,
} from './deps.js';
export {
  compareDiagnostics,
  countBySeverity,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  type Severity,
} from './diagnostics.js';
export {
  type AvailableSkillEntry,
  escapeXmlText,
  renderAvailableSkillsXml,
} from './disclosure/available-skills.js';
export { SkillhostError, type SkillhostErrorOptions } from './errors.js';
export {
  type CheckSkillOptions,
  checkSkillDirectory,
  type SkillCheck,
  type SkillToCheck,
} from './registry/check-skill.js';
export {
  loadSkillDirectory,
  type ReadSkillOptions,
  type ReadSkillResult,
  readSkillDirectory,
} from './registry/read-skill.js';
export {
  type ValidatePathsOptions,
  type ValidationReport,
  type ValidationSummary,
  validateSkillPaths,
} from './registry/validate-paths.js';
export {
  DEFAULT_WALK_OPTIONS,
  type FoundSkill,
  findSkillFileEntry,
  type WalkOptions,
  type WalkVisitor,
  walkSkillTree,
} from './registry/walk.js';
export {
  type BodyCheckOptions,
  type BodyLink,
  checkBody,
  countLines,
  estimateTokens,
  findBodyLinks,
} from './spec/body.js';
export {
  type FrontmatterParts,
  type FrontmatterProblem,
  splitFrontmatter,
} from './spec/frontmatter.js';
export {
  CLIENT_SPECIFIC_FIELDS,
  DEFAULT_READ_LIMITS,
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  RECOMMENDED_MAX_BODY_LINES,
  RECOMMENDED_MAX_BODY_TOKENS,
  type ReadLimits,
  SPEC_FIELDS,
} from './spec/limits.js';
export {
  type LoadedSkill,
  type LoadLevel,
  type LoadOptions,
  loadSkill,
  type SkillMetadata,
  toSkillMetadata,
} from './spec/load.js';
export {
  type ParsedSkill,
  type ParseOptions,
  parseSkill,
  type SkillLocation,
} from './spec/parse.js';
export { type SkillProperties, skillProperties } from './spec/properties.js';
export { type DecodedText, decodeSkillText, LineIndex, type Position } from './spec/text.js';
export { codePointLength, pythonStrip } from './spec/unicode.js';
export { type ValidateOptions, validateSkill } from './spec/validate.js';
export type { ValidationMode } from './spec/validate-fields.js';
export type { FieldLocation, FrontmatterMap, FrontmatterValue } from './spec/yaml-types.js';
