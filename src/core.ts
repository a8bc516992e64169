/**
 * The curated core API, shared by both public entries: `skillhost` (src/index.ts) and
 * `skillhost/node` (src/node/index.ts). Every line exported here is public API and documented in
 * the README: adding an export is a deliberate act, and api/*.api.txt shows it in review. What
 * the CLI, the adapters and `skillhost/node` need beyond this goes through src/internal.ts.
 * Nothing reachable from this file imports `node:*` or `yaml`.
 */

// Agents: agent.yaml, models, the system prompt.
export {
  type AgentManifest,
  type AgentManifestOptions,
  type AgentModels,
  isValidAgentName,
  type ParsedAgentManifest,
  parseAgentManifest,
} from './agents/manifest.js';
export {
  type ModelPlan,
  PROVIDERS,
  type ProviderInfo,
  type ProviderName,
  resolveModelPlan,
} from './agents/models.js';
export { type AgentPromptTokens, checkAgentBudget, joinSystemPrompt } from './agents/prompt.js';
// The audit trail: records, sinks, reading and verifying a log.
export {
  type AuditLogProblem,
  type ParsedAuditLog,
  parseAuditLog,
  type SessionVerdict,
  verifyAuditLog,
} from './audit/reader.js';
export {
  type AuditFilesVerdict,
  type AuditLogFile,
  type ChainHead,
  type FileProblem,
  type SessionChain,
  verifyAuditFiles,
} from './audit/rotation.js';
export {
  type AuditCall,
  type AuditEventInput,
  type AuditEventName,
  type AuditRecord,
  type AuditSink,
  type AuditTrigger,
  MemoryAuditSink,
  redactSecrets,
} from './audit/trail.js';
export { countSkillUsage, type RecordedUsage } from './audit/usage.js';
// Codes, errors and diagnostics.
export { CODES, type Code, type CodeCategory, type CodeInfo, describeCode } from './codes.js';
// The outside world, as interfaces (skillhost/node and skillhost/testing implement them).
export type {
  CacheStore,
  CapturedOutput,
  CommandRunRequest,
  ContentHasher,
  DirectoryEntry,
  DirectoryWatcher,
  EntryKind,
  FileStatus,
  ListProblem,
  ListResult,
  MemoryLimitMethod,
  NotStagedFile,
  NotStagedFiles,
  NotStagedReason,
  ReadProblem,
  ReadResult,
  ReadWithinOptions,
  SandboxExplanation,
  ScriptInterpreter,
  ScriptLimits,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
  ScriptWorkspace,
  SkillEnvironmentStatus,
  SkillFileSystem,
  WatchHandle,
  WatchOptions,
  WrittenFile,
  WrittenFiles,
} from './deps.js';
export {
  compareDiagnostics,
  countBySeverity,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  type Severity,
} from './diagnostics.js';
// Disclosure: the catalog (L1), activation (L2), resources (L3), the router.
export type { Activation, ActivationTrigger, SkillFile } from './disclosure/activation.js';
export {
  type AvailableSkillEntry,
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
  type SkillUsage,
  type UsageTable,
} from './disclosure/catalog.js';
export {
  checkResourcePath,
  DEFAULT_MAX_RESOURCE_BYTES,
  type PathCheck,
  type ResourceContent,
  type ResourceOptions,
  type SkillResource,
} from './disclosure/resources.js';
export { ROUTER_STOP_WORDS } from './disclosure/route-terms.js';
export {
  type RoutableSkill,
  type RouteCandidate,
  type RouteField,
  type RouteOptions,
  type RouteResult,
  type RouteVerdict,
  SkillRouter,
  type TermMatch,
} from './disclosure/router.js';
export { loadTokenCounter, type TokenCounter } from './disclosure/tokens.js';
export { SkillhostError, type SkillhostErrorOptions } from './errors.js';
// The format: parse, validate, load, and its limits.
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
} from './format/load.js';
export {
  type ParsedSkill,
  type ParseOptions,
  parseSkill,
  type SkillLocation,
} from './format/parse.js';
export { type SkillProperties, skillProperties } from './format/properties.js';
export { type DecodedText, decodeSkillText, type Position } from './format/text.js';
export { type ValidateOptions, validateSkill } from './format/validate.js';
export type { ValidationMode } from './format/validate-fields.js';
export type { YamlEngine, YamlSource } from './format/yaml-engine.js';
export type { FieldLocation, FrontmatterMap, FrontmatterValue } from './format/yaml-types.js';
// Installing skills: where from, the lockfile, what an archive may hold, what an update changes.
export { ARCHIVE_LIMITS, type ArchiveLimits } from './install/archive-rules.js';
export { compareSkillVersions, type SkillChanges, type SkillVersion } from './install/changes.js';
export {
  compareFiles,
  emptyLockfile,
  type FileDifferences,
  LOCKFILE_NAME,
  type LockedSkill,
  type Lockfile,
  type ParsedLockfile,
  parseLockfile,
  serializeLockfile,
  treeDigest,
  withLockedSkill,
} from './install/lockfile.js';
export {
  describeSource,
  type InstallSource,
  isExternalSource,
  parseInstallSource,
  type SourceLookup,
} from './install/source.js';
// The policy: allowed-tools, decisions, explanations.
export {
  type GrantProblem,
  type GrantProblemKind,
  type ParsedAllowedTools,
  parseAllowedTools,
  type ToolGrant,
} from './policy/allowed-tools.js';
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
export {
  type ExplainedCall,
  type ExplainOptions,
  type ExplainScript,
  explainGrants,
  explainScripts,
  type GrantExplanation,
  type GrantStatus,
} from './policy/explain.js';
export {
  agentTools,
  CANONICAL_TOOLS,
  type CanonicalTool,
  canonicalTool,
  WORKSPACE_TOOLS_ALLOWED_BY_DEFAULT,
} from './policy/tools.js';
// Sources, trust and the registry's entries.
export type { DiscoveryOptions } from './registry/discover.js';
export type { FileIdentity } from './registry/identity.js';
export type { RegistryChanges, RegistryEntry, SkillStatus } from './registry/registry.js';
export {
  DEFAULT_PRECEDENCE,
  type DefaultSourceOptions,
  defaultSources,
  findProjectRoot,
  isProjectTrusted,
  PROJECT_MARKERS,
  PROJECT_SKILL_FOLDERS,
  type ProjectRoot,
  SKILL_FOLDERS,
  type SkillFolder,
  type SkillSource,
  type SourceFolderState,
  type SourceKind,
  sourceFolders,
  type Trust,
  USER_SKILL_FOLDERS,
} from './registry/sources.js';
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
// The runtime: the one door to all of the above.
export {
  type CreateSkillRuntimeOptions,
  createSkillRuntime,
  type SkillRuntimeDeps,
} from './runtime/create.js';
export { DEFAULT_SCRIPT_LIMITS } from './runtime/script-run.js';
export type {
  JsonSchemaObject,
  RuntimeToolName,
  ToolAnnotations,
  ToolCallOptions,
  ToolCallResult,
  ToolDefinition,
} from './runtime/tools.js';
export type {
  ActivationApprovalQuestion,
  AgentAuditEvent,
  ApprovalAnswer,
  ApprovalQuestion,
  ApprovalStore,
  Refusal,
  ScriptApprovalQuestion,
  ScriptRun,
  SessionOptions,
  SetupAuditEvent,
  SkillFileListing,
  SkillRuntime,
  ToolApprovalQuestion,
} from './runtime/types.js';
export type { WorkspaceToolName } from './runtime/workspace-tools.js';
// Skill folders read through a file system: validation and loading.
export type { SkillCheck } from './skill-files/check.js';
export {
  loadSkillDirectory,
  type ReadSkillOptions,
  type ReadSkillResult,
  readSkillDirectory,
} from './skill-files/load.js';
export {
  type ValidatePathsOptions,
  type ValidationReport,
  type ValidationSummary,
  validateSkillPaths,
} from './skill-files/validate-paths.js';
export type { WalkLimits } from './skill-files/walker.js';
export type {
  WorkspaceEntry,
  WorkspaceFailure,
  WorkspaceFileIdentity,
  WorkspaceFiles,
  WorkspaceListResult,
  WorkspaceProblem,
  WorkspaceReadResult,
  WorkspaceWriteResult,
} from './workspace-deps.js';
