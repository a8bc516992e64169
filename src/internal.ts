/**
 * What skillhost/node, the CLI and the adapters need of the core and users do not. Never
 * re-exported by a public entry (the API report and the architecture test keep it so).
 */
import {
  createSkillRuntime,
  listAgents,
  loadSkill,
  loadSkillDirectory,
  parseAgentManifest,
  parseSkill,
  readAgent,
  readSkillDirectory,
  validateSkillPaths,
  type YamlSource,
} from './core.js';

export {
  DEFAULT_CONTEXT_WINDOW,
  MODEL_LIMITS,
  type ModelLimits,
  modelLimits,
} from './agents/models.js';
export { MODEL_PRICES, type ModelPrice, modelCost, modelPrice } from './agents/prices.js';
export {
  nextRotatedLogName,
  openHeads,
  ROTATION_SESSION,
  rotationLine,
  sortRotatedLogNames,
} from './audit/rotation.js';
export { AuditTrail } from './audit/trail.js';
export type { CompactionOutcome } from './context/compact.js';
export type {
  CompactionEvent,
  CompactionTrigger,
  ContextAuditEvent,
  ContextEvent,
  SkillStateEvent,
} from './context/events.js';
export {
  type LedgerEntry,
  type LedgerRecord,
  SkillLedger,
  type SkillState,
  skillSummary,
} from './context/ledger.js';
export {
  type ContextLimits,
  ContextManager,
  type ContextOptions,
} from './context/manager.js';
export {
  reactivationCall,
  renderSkillsState,
  type SkillsState,
  type SkillsStateOptions,
} from './context/skills-state.js';
export type { Summarizer } from './context/summary-input.js';
export { listSkillFiles } from './disclosure/activation.js';
export { fullCatalogPieces } from './disclosure/catalog.js';
export { mediaTypeOf } from './disclosure/resources.js';
export { splitFrontmatter } from './format/frontmatter.js';
export { parseYamlFast } from './format/yaml-fast.js';
export { parseYamlWithLibrary } from './format/yaml-library.js';
export {
  ArchiveChecker,
  type ArchiveEntry,
  type ArchiveEntryType,
  type CheckedEntry,
} from './install/archive-rules.js';
export { diffLines } from './install/changes.js';
export { hasDifferences } from './install/lockfile.js';
export { isValidSkillFolderName } from './install/names.js';
export { type ArchiveFormat, archiveFormat, isFullCommit } from './install/source.js';
export {
  type ApprovalAsker,
  ApprovalBroker,
  type ApprovalBrokerOptions,
  type ApprovalDecision,
  type ApprovalRequest,
  canonicalJson,
  NO_TERMINAL_NOTE,
} from './loop/approvals.js';
export {
  type CliAgentDriver,
  type CliAgentExit,
  type CliAgentSession,
  type CliAgentStartOptions,
  type CliAgentVersion,
  type CliFailure,
  type CliMcpServer,
  type CliPermissionDecision,
  type CliPermissionHandler,
  type CliPermissionRequest,
  type CliPermissionScope,
  type CliWorkspace,
  runCliTurn,
  type SessionStartHook,
  type SessionStartInfo,
} from './loop/cli-agent.js';
export {
  type CliPolicyOptions,
  type CliToolQuestion,
  denialMessage,
  policyPermissions,
} from './loop/cli-permissions.js';
export {
  type AcpToolCallLike,
  acpToolRequest,
  claudeBuiltinTools,
  claudePermissionFlags,
  claudeToolRequest,
  isRuntimeTool,
  splitCommandLine,
  workspacePath,
} from './loop/cli-tools.js';
export { EventStream } from './loop/event-stream.js';
export {
  addUsage,
  EVENT_SCHEMA_VERSION,
  type LoopEvent,
  type LoopLimit,
  type LoopStatus,
  type LoopUsage,
  ZERO_USAGE,
} from './loop/events.js';
export {
  type AgentLoopOptions,
  type AgentLoopResult,
  type LoopApprovals,
  type LoopLimits,
  type LoopRuntime,
  type ModelAuditEvent,
  runAgentLoop,
} from './loop/loop.js';
export { agentSystemPrompt, type PromptSkill } from './loop/prompt.js';
export {
  API_PROVIDERS,
  type ApiProviderName,
  isApiProvider,
  type ModelHandle,
  modelHandle,
  type ProviderConnection,
} from './loop/providers.js';
export { modelSummarizer } from './loop/summarize.js';
export { RUNTIME_TOOLS_ALLOWED_BY_DEFAULT } from './policy/tools.js';
export { quote } from './quote.js';
export { unusableReason } from './registry/entries.js';
export { fnv1a } from './registry/hash.js';
export { SkillRegistry } from './registry/registry.js';
export {
  notFoundError,
  skillFindings,
  unavailableError,
  usableEntry,
} from './registry/usable.js';
export { loadScript } from './runtime/scripts.js';
export { type CheckSkillOptions, checkSkillDirectory } from './skill-files/check.js';
export { findSkillFileEntry } from './skill-files/skill-file.js';
export { WALK_DEFAULTS, walkSkillTree } from './skill-files/walker.js';
export { editDistance, suggest, withSuggestions } from './suggest.js';

/**
 * The public functions that parse YAML, with `yaml` as their default YAML source (an explicit
 * `yaml` option still wins): the `skillhost` entry binds the `yaml` package, `skillhost/node` a
 * loader that loads it on first need. Neither the core nor the entries keep a global.
 */
export function bindYaml(yaml: YamlSource) {
  const withYaml = <T extends { readonly yaml?: YamlSource }>(options: T | undefined): T =>
    (options?.yaml === undefined ? { ...options, yaml } : options) as T;
  return {
    parseSkill: ((text, location, options) =>
      parseSkill(text, location, withYaml(options))) as typeof parseSkill,
    loadSkill: ((text, location, options) =>
      loadSkill(text, location, withYaml(options))) as typeof loadSkill,
    parseAgentManifest: ((source, file, directoryName, options) =>
      parseAgentManifest(
        source,
        file,
        directoryName,
        withYaml(options),
      )) as typeof parseAgentManifest,
    readSkillDirectory: ((fs, directory, options) =>
      readSkillDirectory(fs, directory, withYaml(options))) as typeof readSkillDirectory,
    loadSkillDirectory: ((fs, directory, options) =>
      loadSkillDirectory(fs, directory, withYaml(options))) as typeof loadSkillDirectory,
    validateSkillPaths: ((paths, options) =>
      validateSkillPaths(paths, withYaml(options))) as typeof validateSkillPaths,
    readAgent: ((fs, bases, name, options) =>
      readAgent(fs, bases, name, withYaml(options))) as typeof readAgent,
    listAgents: ((fs, bases, options) =>
      listAgents(fs, bases, withYaml(options))) as typeof listAgents,
    createSkillRuntime: ((options) =>
      createSkillRuntime({
        ...options,
        deps: withYaml(options.deps),
      })) as typeof createSkillRuntime,
  };
}
