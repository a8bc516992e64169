/**
 * The curated core API, shared by both public entries: `skillhost` (src/index.ts) and
 * `skillhost/node` (src/node/index.ts). Every line exported here is public API: adding an
 * export is a deliberate act. Nothing reachable from this file imports `node:*` or `yaml`.
 */

export {
  type AgentManifest,
  type AgentManifestOptions,
  type AgentModels,
  isValidAgentName,
  type ParsedAgentManifest,
  parseAgentManifest,
} from './agents/manifest.js';
export {
  findProvider,
  type ModelPlan,
  PROVIDERS,
  type ProviderInfo,
  type ProviderName,
  resolveModelPlan,
} from './agents/models.js';
export { type AgentPromptTokens, checkAgentBudget, joinSystemPrompt } from './agents/prompt.js';
export {
  type AuditLogProblem,
  type ParsedAuditLog,
  parseAuditLog,
  type SessionVerdict,
  verifyAuditLog,
} from './audit/reader.js';
export {
  type AuditCall,
  type AuditEventInput,
  type AuditEventName,
  type AuditRecord,
  type AuditSink,
  AuditTrail,
  type AuditTrailOptions,
  type AuditTrigger,
  GENESIS_HASH,
  MemoryAuditSink,
  recordHash,
  redactSecrets,
  serializeRecord,
} from './audit/trail.js';
export { CODES, type Code, type CodeCategory, type CodeInfo, describeCode } from './codes.js';
export type {
  CacheStore,
  CapturedOutput,
  ContentHasher,
  DirectoryEntry,
  DirectoryWatcher,
  EntryKind,
  FileStatus,
  ListProblem,
  ListResult,
  ReadProblem,
  ReadResult,
  ReadWithinOptions,
  ScriptInterpreter,
  ScriptLimits,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
  SkillFileSystem,
  WatchHandle,
  WatchOptions,
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
  type Activation,
  type ActivationTrigger,
  listSkillFiles,
  type SessionOptions,
  type SkillFile,
  SkillSession,
} from './disclosure/activation.js';
export {
  type AvailableSkillEntry,
  escapeXmlText,
  renderAvailableSkillsXml,
} from './disclosure/available-skills.js';
export {
  type CatalogDecision,
  type CatalogFormat,
  type CatalogLevel,
  type CatalogOptions,
  type CatalogResult,
  type CatalogSkill,
  renderCatalog,
} from './disclosure/catalog.js';
export {
  checkResourcePath,
  DEFAULT_MAX_RESOURCE_BYTES,
  mediaTypeOf,
  type PathCheck,
  type ResourceContent,
  type ResourceOptions,
  readSkillResource,
  type SkillResource,
} from './disclosure/resources.js';
export {
  type RoutableSkill,
  type RouteCandidate,
  type RouteOptions,
  type RouteResult,
  SkillRouter,
  tokenize,
} from './disclosure/router.js';
export { type SanitizedText, sanitizeCatalogText, shorten } from './disclosure/sanitize.js';
export { loadTokenCounter, type TokenCounter } from './disclosure/tokens.js';
export { SkillhostError, type SkillhostErrorOptions } from './errors.js';
export {
  type BodyCheckOptions,
  type BodyLink,
  checkBody,
  countLines,
  estimateTokens,
  findBodyLinks,
} from './format/body.js';
export {
  type FrontmatterParts,
  type FrontmatterProblem,
  splitFrontmatter,
} from './format/frontmatter.js';
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
} from './format/limits.js';
export {
  type LoadedSkill,
  type LoadLevel,
  type LoadOptions,
  loadSkill,
  type SkillMetadata,
  toSkillMetadata,
} from './format/load.js';
export {
  type ParsedSkill,
  type ParseOptions,
  parseSkill,
  type SkillLocation,
} from './format/parse.js';
export { type SkillProperties, skillProperties } from './format/properties.js';
export { type DecodedText, decodeSkillText, LineIndex, type Position } from './format/text.js';
export { codePointLength, countInvisible, pythonStrip, removeInvisible } from './format/unicode.js';
export { type ValidateOptions, validateSkill } from './format/validate.js';
export type { ValidationMode } from './format/validate-fields.js';
export type { YamlEngine, YamlSource } from './format/yaml-engine.js';
export type { FieldLocation, FrontmatterMap, FrontmatterValue } from './format/yaml-types.js';
export {
  type GrantProblem,
  type GrantProblemKind,
  type ParsedAllowedTools,
  parseAllowedTools,
  type ToolGrant,
} from './policy/allowed-tools.js';
export { argvMatches, type ParsedCommand, parseCommand } from './policy/command.js';
export {
  type ActiveSkillGrants,
  approvalKey,
  type Decision,
  type DecisionRule,
  evaluate,
  type PolicyConfig,
  type PolicyContext,
  type PolicyDecision,
  type ToolRequest,
} from './policy/engine.js';
export { explainGrants, type GrantExplanation, type GrantStatus } from './policy/explain.js';
export {
  CANONICAL_TOOLS,
  type CanonicalTool,
  canonicalTool,
  DEVICES,
  TOOL_NAMES,
} from './policy/tools.js';
export {
  type DirectoryRecord,
  type DiscoveryOptions,
  readSkillRecord,
  type ScanContext,
  type SkillRecord,
  type SourceScan,
  scanSource,
} from './registry/discover.js';
export type { FileIdentity } from './registry/identity.js';
export { nameSkeleton } from './registry/names.js';
export {
  type RegistryChanges,
  type RegistryEntry,
  type RegistryOptions,
  type RegistryStats,
  type RegistryWatchOptions,
  SkillRegistry,
  type SkillStatus,
} from './registry/registry.js';
export {
  DEFAULT_PRECEDENCE,
  type DefaultSourceOptions,
  defaultSources,
  isProjectTrusted,
  PROJECT_SKILL_FOLDERS,
  type SkillSource,
  type SourceKind,
  type Trust,
  USER_SKILL_FOLDERS,
} from './registry/sources.js';
export { StringTable } from './registry/strings.js';
export {
  type AgentBase,
  type AgentDefinition,
  type AgentListing,
  defaultAgentBases,
  type LoadAgentOptions,
  type LoadedAgent,
  listAgents,
  type ReadAgentOptions,
  readAgent,
} from './runtime/agents.js';
export {
  type CreateSkillRuntimeOptions,
  createSkillRuntime,
  type SkillRuntimeDeps,
} from './runtime/create.js';
export { DEFAULT_SCRIPT_LIMITS, type ScriptSettings } from './runtime/script-run.js';
export { scriptInterpreter } from './runtime/scripts.js';
export {
  callRuntimeTool,
  type JsonSchemaObject,
  type RuntimeToolName,
  runtimeTools,
  type ToolCallResult,
  type ToolDefinition,
} from './runtime/tools.js';
export type {
  ApprovalAnswer,
  ApprovalQuestion,
  ApprovalStore,
  Refusal,
  ScriptRun,
  SkillFileListing,
  SkillRuntime,
} from './runtime/types.js';
export {
  type CheckSkillOptions,
  checkSkillDirectory,
  type SkillCheck,
  type SkillToCheck,
} from './skill-files/check.js';
export {
  loadSkillDirectory,
  type ReadSkillOptions,
  type ReadSkillResult,
  readSkillDirectory,
} from './skill-files/load.js';
export {
  type ReadSkillFileOptions,
  readSkillFile,
  type SkillFileReading,
  type SkillFileRef,
} from './skill-files/reader.js';
export { findSkillFileEntry } from './skill-files/skill-file.js';
export {
  type ValidatePathsOptions,
  type ValidationReport,
  type ValidationSummary,
  validateSkillPaths,
} from './skill-files/validate-paths.js';
export {
  type FolderListing,
  type FoundSkill,
  listFolder,
  WALK_DEFAULTS,
  type WalkLimits,
  type WalkOptions,
  type WalkVisitor,
  walkSkillTree,
} from './skill-files/walker.js';
