import type { Code } from '../codes.js';
import type { ScriptRunResult } from '../deps.js';
import type { CatalogResult } from '../disclosure/catalog.js';
import type { SkillResource } from '../disclosure/resources.js';
import type { RouteOptions, RouteResult } from '../disclosure/router.js';
import { sanitizeCatalogText } from '../disclosure/sanitize.js';
import { SkillhostError } from '../errors.js';
import { cleanText } from '../format/characters.js';
import { canonicalTool } from '../policy/tools.js';
import { quote } from '../quote.js';
import { type ActivateToolHost, activateTool, inScope, MAX_SKILL_NAME } from './activate-tool.js';
import { errorOf } from './records.js';
import { checkInput, type FieldTable, type JsonSchemaObject, schemaOf } from './tool-table.js';
import type { ScriptRun } from './types.js';
import type { WorkspaceToolName } from './workspace-tools.js';

export type { JsonSchemaObject } from './tool-table.js';

/**
 * The model-facing tools, by name: prefixed so that they collide with no built-in tool of the
 * clients and agents they are served to (Gemini CLI's policy denies a tool named
 * `activate_skill`, its own, in every non-interactive run).
 */
export type RuntimeToolName =
  | 'skillhost_activate'
  | 'skillhost_read'
  | 'skillhost_run'
  | 'skillhost_search';

/**
 * The tools' former names, still callable (`callTool`, the adapters' call runners) for one
 * release and never offered: a conversation begun with them goes on. Deprecated.
 */
const DEPRECATED_TOOL_NAMES: Readonly<Record<string, RuntimeToolName>> = Object.freeze({
  activate_skill: 'skillhost_activate',
  read_skill_resource: 'skillhost_read',
  run_skill_script: 'skillhost_run',
  search_skills: 'skillhost_search',
});

/**
 * Each tool's name in the policy's tool vocabulary (`CANONICAL_TOOLS`, `allowed-tools`, the
 * host's ceiling and deny rules), which keeps the names policies are written with.
 */
const POLICY_TOOL: Readonly<Record<RuntimeToolName, string>> = {
  skillhost_activate: 'activate_skill',
  skillhost_read: 'read_skill_resource',
  skillhost_run: 'run_skill_script',
  skillhost_search: 'search_skills',
};

/** A tool's current name for `name` (itself, or the tool a deprecated name stands for). */
function currentToolName(name: string): string {
  return Object.hasOwn(DEPRECATED_TOOL_NAMES, name)
    ? (DEPRECATED_TOOL_NAMES[name] as string)
    : name;
}

/**
 * What a tool does to the world, as MCP's tool annotations say it (clients decide on them what to
 * call without asking): hints, but truthful ones.
 */
export interface ToolAnnotations {
  /** It changes nothing outside the runtime's session (reads, lists, activates). */
  readonly readOnlyHint: boolean;
  /** It may overwrite or delete something (a script writing to a writable workspace). */
  readonly destructiveHint: boolean;
  /** Calling it again with the same input has no further effect. */
  readonly idempotentHint: boolean;
  /** It may reach things outside the skills (the network, the user's files). */
  readonly openWorldHint: boolean;
}

/** One tool as a model receives it. */
export interface ToolDefinition {
  readonly name: RuntimeToolName | WorkspaceToolName;
  /** A short human title (clients show it in approval prompts and tool lists). */
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
  /**
   * Former names that `callTool` still answers to (deprecated, for one release; never offered):
   * an adapter that answers only its own tools' calls answers these too.
   */
  readonly deprecatedNames: readonly string[];
}

/** What a caller may say about a tool call besides its name and input. */
export interface ToolCallOptions {
  /**
   * The model's id of this call (`toolu_…`, `call_…`): the permission records of the call
   * (`permission-decide`, `permission-approve`) carry it as `tool_call_id`, so a decision can be
   * matched with the call it was about.
   */
  readonly callId?: string;
}

/** What a tool call returns: the text the model sees, structured data, and whether it failed. */
export interface ToolCallResult {
  readonly isError: boolean;
  /** The error code when `isError`. */
  readonly code?: Code;
  readonly text: string;
  /** The metadata an application may want (an MCP server sends it in `_meta`, not to the model). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** What the tools need of a runtime: an interface, so this module does not depend on the class. */
export interface ToolHost extends ActivateToolHost {
  /** The host's tools (the ceiling): a tool it lacks is never offered. */
  readonly hostTools: readonly string[];
  /** Whether scripts can run at all (a runner was given). */
  readonly canRunScripts: boolean;
  /** Whether a script may write outside its own scratch folders (a writable workspace). */
  readonly scriptsMayWrite: boolean;
  /** Whether a script may run without the OS sandbox (and so reach the network, the user's files). */
  readonly scriptsMayRunUnsandboxed: boolean;
  /** Whether a script may be given the network (once the user confirms it per skill and script). */
  readonly scriptsMayUseNetwork: boolean;
  catalog(): CatalogResult;
  route(task: string, options?: RouteOptions): RouteResult;
  /** A read the model asks for: an untrusted skill's files only once it is active. */
  readResourceForModel(name: string, path: string): SkillResource;
  runScript(name: string, script: string, args: readonly string[]): Promise<ScriptRun>;
}

const MAX_NAME = MAX_SKILL_NAME;
/** A SHA-256 in hex, optionally written `sha256:HEX`. */
const MAX_HASH = 80;
const MAX_PATH = 1024;
const MAX_QUERY = 2000;
const MAX_SEARCH_RESULTS = 50;
/** An enum of the catalog's names is offered up to this many skills. */
const MAX_ENUM = 500;

const skillName: FieldTable[string] = {
  kind: 'string',
  description: 'The skill name.',
  max: MAX_NAME,
  required: true,
};

/** The tables every tool's schema and input check come from, in the order tools are offered. */
const TABLES: Readonly<Record<RuntimeToolName, FieldTable>> = {
  skillhost_activate: {
    name: { ...skillName, description: 'The skill name, exactly as the catalog lists it.' },
    hash: {
      kind: 'string',
      description:
        "Only to bring back a skill the conversation no longer holds in full: the sha256 its stub in the skills state shows. The skill's current instructions come back, with a notice if its file changed since.",
      max: MAX_HASH,
      required: false,
    },
  },
  skillhost_read: {
    name: skillName,
    path: {
      kind: 'string',
      description: 'Relative path inside the skill folder.',
      max: MAX_PATH,
      required: true,
    },
  },
  skillhost_run: {
    name: skillName,
    script: {
      kind: 'string',
      description: 'Path of the script inside the skill, e.g. scripts/run.py.',
      max: MAX_PATH,
      required: true,
    },
    args: {
      kind: 'strings',
      description: 'Arguments for the script.',
      max: 64,
      maxItem: 8192,
      required: false,
    },
  },
  skillhost_search: {
    query: {
      kind: 'string',
      description: 'What the task is about.',
      max: MAX_QUERY,
      required: true,
    },
    limit: {
      kind: 'integer',
      description: `Most results (default 10, at most ${MAX_SEARCH_RESULTS}).`,
      max: MAX_SEARCH_RESULTS,
      required: false,
    },
  },
};

const ORDER = Object.keys(TABLES) as RuntimeToolName[];

/** Each description says whose tool it is: skillhost's, serving Agent Skills, not the client's. */
const DESCRIPTIONS: Readonly<Record<RuntimeToolName, string>> = {
  skillhost_activate:
    "Agent Skills, served by skillhost (not this client's own skills): load the full instructions of a skill, with its folder and a listing of its files. Call it with the skill's name when the task matches the skill's description, before acting on the task.",
  skillhost_read:
    "Agent Skills, served by skillhost: read one file of a skill (a reference, an asset, a script's source), by its path relative to the skill folder, e.g. references/guide.md.",
  skillhost_run:
    "Agent Skills, served by skillhost: run a script from the scripts/ folder of a skill activated with skillhost_activate, in a sandbox without network. Its working directory is the user's workspace when the host grants one (usually the project folder, read-only, files that commonly hold secrets hidden), else an empty folder: name the user's files relative to it or by their full path. The skill's files are at the skill folder's full path (as skillhost_activate shows it) and at $SKILL_DIR. Files the script writes in its working directory are kept and listed in the result. Arguments are passed as a list, never through a shell. The run may need the user's approval.",
  skillhost_search:
    'Agent Skills, served by skillhost: search the skills by what a task needs, including skills the list could not show. Returns names, descriptions and relevance scores.',
};

const TITLES: Readonly<Record<RuntimeToolName, string>> = {
  skillhost_activate: 'Activate an Agent Skill (skillhost)',
  skillhost_read: "Read a skill's file (skillhost)",
  skillhost_run: "Run a skill's script in the sandbox (skillhost)",
  skillhost_search: 'Search the Agent Skills (skillhost)',
};

/** Activation, reading and search only read (activation changes only the session's state). */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * What each tool does to the world. A script run is never read-only and never idempotent; it is
 * destructive only where it may write to a writable workspace, and reaches the open world only
 * where it may run outside the sandbox or be given the network.
 */
function annotationsOf(host: ToolHost, name: RuntimeToolName): ToolAnnotations {
  if (name !== 'skillhost_run') return READ_ONLY;
  return {
    readOnlyHint: false,
    destructiveHint: host.scriptsMayWrite || host.scriptsMayRunUnsandboxed,
    idempotentHint: false,
    openWorldHint: host.scriptsMayRunUnsandboxed || host.scriptsMayUseNetwork,
  };
}

/** The names of the tools offered, without building their definitions (no catalog rendering). */
function offeredToolNames(host: ToolHost): RuntimeToolName[] {
  if (host.offered().length === 0) return [];
  const ceiling = new Set(host.hostTools.map((name) => canonicalTool(name) ?? name));
  return ORDER.filter(
    (name) => ceiling.has(POLICY_TOOL[name]) && (name !== 'skillhost_run' || host.canRunScripts),
  );
}

/**
 * The tools a model receives: none without a usable skill; only those the host's tool set holds
 * (a tool the host lacks is never offered); `skillhost_run` only with a script runner.
 * `skillhost_activate` takes the catalog's names as an enum while every offered skill is shown in it.
 */
export function runtimeTools(host: ToolHost): ToolDefinition[] {
  const names = offeredToolNames(host);
  if (names.length === 0) return [];
  const catalog = host.catalog();
  const shown = catalog.decisions.filter((decision) => decision.level !== 'hidden');
  const hidden = catalog.decisions.length - shown.length;
  const enumerable = hidden === 0 && shown.length <= MAX_ENUM;
  return names.map((name) => ({
    name,
    title: TITLES[name],
    description:
      name === 'skillhost_activate' && hidden > 0
        ? `${DESCRIPTIONS[name]} ${hidden} skills are not listed in the catalog; find them with skillhost_search.`
        : DESCRIPTIONS[name],
    inputSchema: schemaOf(
      TABLES[name],
      name === 'skillhost_activate' && enumerable
        ? { name: { enum: shown.map((decision) => decision.name) } }
        : {},
    ),
    annotations: annotationsOf(host, name),
    deprecatedNames: Object.keys(DEPRECATED_TOOL_NAMES).filter(
      (old) => DEPRECATED_TOOL_NAMES[old] === name,
    ),
  }));
}

/** What a script printed, as the model reads it: no control or hidden characters (`cleanText`). */
export function describeRun(result: ScriptRunResult): string {
  const stream = (label: string, output: ScriptRunResult['stdout']) => {
    if (output.totalBytes === 0) return '';
    const body =
      output.omittedBytes > 0
        ? `${cleanText(output.head).text}\n[… ${output.omittedBytes} bytes not shown …]\n${cleanText(output.tail).text}`
        : cleanText(output.head + output.tail).text;
    return `<${label}>\n${body}${body.endsWith('\n') ? '' : '\n'}</${label}>\n`;
  };
  const ending = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : result.signal !== null
      ? `killed by ${result.signal}`
      : `exit code ${result.exitCode}`;
  const written = result.written;
  const files =
    written === undefined || written.count === 0
      ? ''
      : `<written count="${written.count}">\n${written.files.map((file) => `${cleanText(file.path).text} (${file.bytes} bytes) -> ${cleanText(file.location).text}`).join('\n')}${written.count > written.files.length ? `\n… and ${written.count - written.files.length} more` : ''}\n</written>\n`;
  const hints =
    result.hints === undefined || result.hints.length === 0
      ? ''
      : `<hints>\n${result.hints.map((hint) => cleanText(hint).text).join('\n')}\n</hints>\n`;
  return `${stream('stdout', result.stdout)}${stream('stderr', result.stderr)}${files}${hints}[${ending}${result.outputLimited ? ', stopped at the output limit' : ''}${result.resourceLimit === 'write' ? ', stopped at the write limit (it wrote more than it may in all)' : result.resourceLimit === 'memory' ? ', failed at the memory limit (it needed more memory than it may use)' : ''}; sandbox: ${result.sandbox}${notStagedNote(result)}]`;
}

/**
 * A run as a tool's result: an error when it timed out, was killed or hit a resource limit (a
 * non-zero exit is the script's own answer, not an error), with the model's text.
 */
export function runResult(
  result: ScriptRunResult,
): Pick<ToolCallResult, 'isError' | 'code' | 'text'> {
  return {
    isError: result.timedOut || result.signal !== null || result.resourceLimit !== undefined,
    ...(result.timedOut
      ? { code: 'SCRIPT_TIMEOUT' as const }
      : result.resourceLimit !== undefined
        ? { code: 'RESOURCE_LIMIT' as const }
        : {}),
    text: describeRun(result),
  };
}

/** Says which files of the skill the script did not get, so that a missing file is explained. */
function notStagedNote(result: ScriptRunResult, shown = 10): string {
  const left = result.notStaged;
  if (left === undefined || left.count === 0) return '';
  const named = left.files.slice(0, shown).map((file) => `${file.path} (${file.reason})`);
  const more = left.count - named.length;
  return `; ${left.count} skill file${left.count === 1 ? ' was' : 's were'} not staged: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

async function execute(
  host: ToolHost,
  name: RuntimeToolName,
  input: Record<string, unknown>,
): Promise<ToolCallResult> {
  switch (name) {
    case 'skillhost_activate':
      return activateTool(host, input.name as string, input.hash as string | undefined);
    case 'skillhost_read': {
      const resource = host.readResourceForModel(
        inScope(host, input.name as string),
        input.path as string,
      );
      const data = { path: resource.path, mediaType: resource.mediaType, size: resource.size };
      if (resource.content.kind === 'text')
        return { isError: false, text: resource.content.text, data };
      return {
        isError: false,
        text: `${resource.path} is a binary file (${resource.mediaType}, ${resource.size} bytes); it is not shown as text (the application receives it as base64 in the result data).`,
        data: { ...data, base64: resource.content.base64 },
      };
    }
    case 'skillhost_run': {
      const run = await host.runScript(
        inScope(host, input.name as string),
        input.script as string,
        (input.args as string[] | undefined) ?? [],
      );
      const { result } = run;
      return {
        ...runResult(result),
        data: {
          exitCode: result.exitCode,
          signal: result.signal,
          timedOut: result.timedOut,
          durationMs: result.durationMs,
          sandbox: result.sandbox,
          approvedBy: run.approvedBy,
          contentHash: run.contentHash,
          ...(result.notStaged === undefined ? {} : { notStaged: result.notStaged }),
          ...(result.resourceLimit === undefined ? {} : { limit: result.resourceLimit }),
          ...(result.writtenBytes === undefined ? {} : { writtenBytes: result.writtenBytes }),
          ...(result.written === undefined ? {} : { written: result.written }),
          ...(result.hints === undefined ? {} : { hints: result.hints }),
        },
      };
    }
    case 'skillhost_search': {
      const routed = host.route(input.query as string, {
        candidates: (input.limit as number | undefined) ?? 10,
      });
      const descriptions = new Map(
        host.offered().map((entry) => [entry.name, entry.metadata?.description ?? '']),
      );
      // One line per skill, as the catalog shows it; untrusted ones are marked (and ranked last).
      const results = routed.ranked.map((candidate) => ({
        name: candidate.name,
        description: sanitizeCatalogText(descriptions.get(candidate.name) ?? '').text,
        score: Math.round(candidate.score * 1000) / 1000,
        trusted: candidate.trusted,
      }));
      return {
        isError: false,
        text:
          results.length === 0
            ? 'No skill matches.'
            : results
                .map(
                  (result) =>
                    `${result.name} (${result.score})${result.trusted ? '' : ' [untrusted: activating it asks the user]'}: ${result.description}`,
                )
                .join('\n'),
        data: { results },
      };
    }
  }
}

/**
 * Executes one model-facing tool call. Failures come back as results with `isError` and a code
 * (the model can read them and recover); nothing a model sends makes this throw.
 */
export async function callRuntimeTool(
  host: ToolHost,
  name: string,
  input: unknown,
): Promise<ToolCallResult> {
  try {
    const current = currentToolName(String(name));
    const tool = offeredToolNames(host).find((offered) => offered === current);
    if (tool === undefined) {
      throw new SkillhostError('TOOL_UNKNOWN', `No tool named ${quote(String(name))} is offered`);
    }
    return await execute(host, tool, checkInput(tool, TABLES[tool], input));
  } catch (error) {
    const { code, message } = errorOf(error);
    return {
      isError: true,
      code,
      text: code === 'INTERNAL_ERROR' ? `Error: ${message}` : `Error ${code}: ${message}`,
    };
  }
}
