import type { AuditEventInput } from '../audit/trail.js';
import type {
  CommandRunRequest,
  ContentHasher,
  ScriptLimits,
  ScriptRunResult,
  ScriptWorkspace,
} from '../deps.js';
import { SkillhostError } from '../errors.js';
import type { Decision, PolicyDecision, ToolRequest } from '../policy/engine.js';
import { canonicalTool } from '../policy/tools.js';
import { quote } from '../quote.js';
import type { WorkspaceFiles } from '../workspace-deps.js';
import {
  errorOf,
  toolAnswerRecord,
  toolCallRecord,
  toolDecisionRecord,
  type WorkspaceCall,
} from './records.js';
import { checkInput, type FieldTable, schemaOf } from './tool-table.js';
import type { ToolAnnotations, ToolCallResult, ToolDefinition } from './tools.js';
import type { ApprovalAnswer, ApprovalQuestion, ToolApprovalQuestion } from './types.js';
import {
  editFile,
  GREP_DEFAULT_RESULTS,
  globFiles,
  grepFiles,
  listFolder,
  type OperationContext,
  READ_DEFAULT_LINES,
  readFile,
  runCommand,
  sizeText,
  type ToolOutcome,
  workspaceError,
  writeFile,
} from './workspace-operations.js';
import { MAX_WORKSPACE_PATH, workspacePath } from './workspace-paths.js';
import { MAX_GREP_PATTERN } from './workspace-search.js';

/**
 * The host tools: what the agent format's devices stand for (`/dev/fs`: read, list, glob, grep,
 * write, edit; `/dev/shell`: bash), over the user's workspace and run by the runtime. Named
 * `workspace_*` so that they shadow no client's built-in tool (`Read`, `read_file`, `bash`,
 * `shell`, `glob`, `grep`, `list_directory`, `write_file`, `edit`) and are not taken for the
 * skill tools (`skillhost_*`, which read skills' own files).
 */
export type WorkspaceToolName =
  | 'workspace_read'
  | 'workspace_list'
  | 'workspace_glob'
  | 'workspace_grep'
  | 'workspace_write'
  | 'workspace_edit'
  | 'workspace_bash';

const MAX_CONTENT = 1_000_000;
const MAX_COMMAND = 20_000;
const MAX_TIMEOUT_SECONDS = 600;

const path = (description: string, required: boolean): FieldTable[string] => ({
  kind: 'string',
  description,
  max: MAX_WORKSPACE_PATH,
  required,
});
const folder = path(
  'Folder to start from, relative to the workspace (default: the workspace itself).',
  false,
);

/** The tables every host tool's schema and input check come from, in the order they are offered. */
const TABLES: Readonly<Record<WorkspaceToolName, FieldTable>> = {
  workspace_read: {
    path: path('Path of the file, relative to the workspace (or absolute inside it).', true),
    offset: {
      kind: 'integer',
      description: 'First line to show (1 for the start).',
      max: 100_000_000,
      required: false,
    },
    limit: {
      kind: 'integer',
      description: `Most lines to show (default ${READ_DEFAULT_LINES}).`,
      max: 100_000,
      required: false,
    },
  },
  workspace_list: { path: folder },
  workspace_glob: {
    pattern: {
      kind: 'string',
      description: 'Glob over paths below the folder, e.g. **/*.ts or src/*.{js,mjs}.',
      max: 1000,
      required: true,
    },
    path: folder,
  },
  workspace_grep: {
    pattern: {
      kind: 'string',
      description: 'Text to find in each line (a regular expression with regex: true).',
      max: MAX_GREP_PATTERN,
      required: true,
    },
    path: path(
      'File or folder to search, relative to the workspace (default: the workspace).',
      false,
    ),
    glob: {
      kind: 'string',
      description: "Only files matching this glob (without a /, the file's name), e.g. *.py.",
      max: 1000,
      required: false,
    },
    regex: {
      kind: 'boolean',
      description: 'Read pattern as a JavaScript regular expression.',
      max: 0,
      required: false,
    },
    ignore_case: {
      kind: 'boolean',
      description: 'Match regardless of case.',
      max: 0,
      required: false,
    },
    max_results: {
      kind: 'integer',
      description: `Most matching lines (default ${GREP_DEFAULT_RESULTS}).`,
      max: 1000,
      required: false,
    },
  },
  workspace_write: {
    path: path('Path of the file to create or replace, relative to the workspace.', true),
    content: {
      kind: 'string',
      description: 'The whole new content of the file (UTF-8 text).',
      max: MAX_CONTENT,
      required: true,
    },
  },
  workspace_edit: {
    path: path('Path of the file to change, relative to the workspace.', true),
    old_text: {
      kind: 'string',
      description:
        'Text to replace, exactly as it is in the file (once in it, unless replace_all).',
      max: MAX_CONTENT,
      required: true,
    },
    new_text: {
      kind: 'string',
      description: 'Text to put in its place.',
      max: MAX_CONTENT,
      required: true,
    },
    replace_all: {
      kind: 'boolean',
      description: 'Replace every occurrence of old_text.',
      max: 0,
      required: false,
    },
  },
  workspace_bash: {
    command: {
      kind: 'string',
      description: 'The command line, as bash reads it.',
      max: MAX_COMMAND,
      required: true,
    },
    timeout_seconds: {
      kind: 'integer',
      description: `Wall-clock limit in seconds (default the host's, at most ${MAX_TIMEOUT_SECONDS}).`,
      max: MAX_TIMEOUT_SECONDS,
      required: false,
    },
  },
};

const ORDER = Object.keys(TABLES) as WorkspaceToolName[];

const DESCRIPTIONS: Readonly<Record<WorkspaceToolName, string>> = {
  workspace_read:
    "Read a text file of the user's workspace (the project folder skillhost was given), with line numbers; offset and limit pick lines. Files that commonly hold secrets (.env, keys, credentials) are hidden.",
  workspace_list:
    "List a folder of the user's workspace: its files (with sizes), folders (ending in /) and links. Files that commonly hold secrets are left out.",
  workspace_glob:
    "Find files of the user's workspace whose paths match a glob (** for any depth), below a folder; .git and package folders such as node_modules are not searched unless the folder is in them.",
  workspace_grep:
    "Search the text files of the user's workspace for lines that hold a text (or match a regular expression): path:line: text for each. Binary files, large files and files that commonly hold secrets are skipped.",
  workspace_write:
    "Create a file in the user's workspace, or replace its whole content (folders on the way are made). The user may be asked first. Protected paths (.git, agent and editor settings) and secret files are never written.",
  workspace_edit:
    "Change a file of the user's workspace by replacing old_text (exactly as it is in the file, once in it unless replace_all) with new_text. The user may be asked first.",
  workspace_bash:
    "Run a shell command (bash) in a sandbox without network, in the user's workspace (read-only unless the user granted it writable; files that commonly hold secrets hidden). New files in a read-only workspace are kept apart and listed. The user may be asked first.",
};

const TITLES: Readonly<Record<WorkspaceToolName, string>> = {
  workspace_read: 'Read a workspace file',
  workspace_list: 'List a workspace folder',
  workspace_glob: 'Find workspace files',
  workspace_grep: 'Search workspace files',
  workspace_write: 'Write a workspace file',
  workspace_edit: 'Edit a workspace file',
  workspace_bash: 'Run a command in the sandbox',
};

/** What a runtime gives the host tools: its workspace, policy, approvals, runner and trail. */
export interface WorkspaceToolHost {
  /** The host's tools (the ceiling). */
  readonly hostTools: readonly string[];
  /** The host's defaults: a tool it denies by default is not offered. */
  readonly defaults: Readonly<Partial<Record<string, Decision>>> | undefined;
  /** The workspace's files; undefined: no host tools. */
  readonly files: WorkspaceFiles | undefined;
  /** The workspace as granted (bash runs in it). */
  readonly workspace: ScriptWorkspace | undefined;
  readonly runCommand: ((request: CommandRunRequest) => Promise<ScriptRunResult>) | undefined;
  /** Why commands cannot run in a sandbox now, if they cannot (found out before anyone is asked). */
  sandboxProblem(): string | undefined;
  readonly limits: ScriptLimits;
  readonly allowUnsandboxed: boolean;
  readonly hash: ContentHasher;
  /** The policy's decision on a host tool's call (its read-only tools allowed by default). */
  decide(request: ToolRequest): PolicyDecision;
  readonly confirm: ((question: ApprovalQuestion) => Promise<ApprovalAnswer>) | undefined;
  record(input: AuditEventInput): void;
}

/** Whether a name is one of the host tools' (offered or not). */
export function isWorkspaceToolName(name: string): name is WorkspaceToolName {
  return Object.hasOwn(TABLES, name);
}

/** The host tools offered: with a workspace, within the ceiling, write and edit only to a writable one, bash only with a runner that runs commands. */
function offeredNames(host: WorkspaceToolHost): WorkspaceToolName[] {
  if (host.files === undefined) return [];
  const ceiling = new Set(host.hostTools.map((name) => canonicalTool(name) ?? name));
  return ORDER.filter((name) => {
    const tool = canonicalTool(name) as string;
    if (!ceiling.has(tool) || host.defaults?.[tool] === 'deny') return false;
    if (name === 'workspace_write' || name === 'workspace_edit')
      return host.files?.writable === true;
    if (name === 'workspace_bash') return host.runCommand !== undefined;
    return true;
  });
}

function annotationsOf(host: WorkspaceToolHost, name: WorkspaceToolName): ToolAnnotations {
  const readOnly = !['workspace_write', 'workspace_edit', 'workspace_bash'].includes(name);
  return {
    readOnlyHint: readOnly,
    destructiveHint:
      name === 'workspace_write' ||
      name === 'workspace_edit' ||
      (name === 'workspace_bash' && (host.workspace?.writable === true || host.allowUnsandboxed)),
    idempotentHint: name !== 'workspace_bash' && name !== 'workspace_edit',
    openWorldHint: name === 'workspace_bash' && host.allowUnsandboxed,
  };
}

/** The host tools a model receives (none without a workspace). */
export function workspaceTools(host: WorkspaceToolHost): ToolDefinition[] {
  return offeredNames(host).map((name) => ({
    name,
    title: TITLES[name],
    description: DESCRIPTIONS[name],
    inputSchema: schemaOf(TABLES[name]),
    annotations: annotationsOf(host, name),
    deprecatedNames: [],
  }));
}

/** The input with its paths relative to the workspace (as the policy, the question and the operations take them). */
function normalise(
  host: WorkspaceToolHost,
  name: WorkspaceToolName,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (name === 'workspace_bash') return input;
  const roots = [host.files?.root ?? '', host.workspace?.path ?? ''].filter((root) => root !== '');
  return { ...input, path: workspacePath(String(input.path ?? ''), roots) };
}

/** The request the policy decides: a path for the file tools, the command line for bash. */
function requestOf(name: WorkspaceToolName, input: Record<string, unknown>): ToolRequest {
  if (name === 'workspace_bash') return { tool: name, command: input.command as string };
  return { tool: name, path: input.path as string };
}

/** What the audit trail keeps of a call: never a file's content, a path, a pattern, a command, sizes. */
function callOf(
  host: WorkspaceToolHost,
  name: WorkspaceToolName,
  input: Record<string, unknown>,
): WorkspaceCall {
  const call: Record<string, unknown> = { tool: name };
  for (const key of ['path', 'pattern', 'glob', 'command', 'offset', 'limit', 'replace_all'])
    if (input[key] !== undefined) call[key] = input[key];
  if (typeof input.content === 'string') {
    const bytes = new TextEncoder().encode(input.content);
    call.bytes = bytes.length;
    call.sha256 = host.hash(bytes);
  }
  if (typeof input.old_text === 'string') call.old_chars = input.old_text.length;
  if (typeof input.new_text === 'string') call.new_chars = input.new_text.length;
  return call as WorkspaceCall;
}

function lineCount(text: unknown): number {
  return typeof text === 'string' ? text.split('\n').length : 0;
}

/** One line for the approval prompt. */
function summaryOf(name: WorkspaceToolName, input: Record<string, unknown>): string {
  switch (name) {
    case 'workspace_bash':
      return `bash: ${String(input.command).slice(0, 300)}`;
    case 'workspace_write':
      return `write ${sizeText(new TextEncoder().encode(String(input.content)).length)} to ${String(input.path)}`;
    case 'workspace_edit':
      return `edit ${String(input.path)}: replace ${lineCount(input.old_text)} line(s) with ${lineCount(input.new_text)}${input.replace_all === true ? ', everywhere' : ''}`;
    default:
      return `${name.slice('workspace_'.length)} ${String(input.path) || '.'}`;
  }
}

async function operate(
  host: WorkspaceToolHost,
  name: WorkspaceToolName,
  input: Record<string, unknown>,
): Promise<ToolOutcome> {
  const context: OperationContext = {
    files: host.files as WorkspaceFiles,
    hash: host.hash,
    workspace: host.workspace,
    runCommand: host.runCommand,
    limits: host.limits,
    allowUnsandboxed: host.allowUnsandboxed,
  };
  // The input passed its table: the fields have the types the operations take.
  const given = input as never;
  switch (name) {
    case 'workspace_read':
      return readFile(context, given);
    case 'workspace_list':
      return listFolder(context, given);
    case 'workspace_glob':
      return globFiles(context, given);
    case 'workspace_grep':
      return grepFiles(context, given);
    case 'workspace_write':
      return writeFile(context, given);
    case 'workspace_edit':
      return editFile(context, given);
    case 'workspace_bash':
      return runCommand(context, given);
  }
}

/**
 * Executes a host tool's call: its input checked against its schema (a bad one is an error
 * result, never run), its paths confined to the workspace, the policy's decision recorded, the
 * user asked when the policy says ask, then the operation, then its record. Failures come back
 * as results with `isError` and a code; nothing a model sends makes this throw.
 */
export async function callWorkspaceTool(
  host: WorkspaceToolHost,
  name: string,
  input: unknown,
): Promise<ToolCallResult> {
  let call: WorkspaceCall = { tool: String(name).slice(0, 200) };
  try {
    const tool = offeredNames(host).find((offered) => offered === name);
    if (tool === undefined)
      throw new SkillhostError('TOOL_UNKNOWN', `No tool named ${quote(String(name))} is offered`);
    const checked = normalise(host, tool, checkInput(tool, TABLES[tool], input));
    call = callOf(host, tool, checked);
    // What would be refused anyway is refused before anyone is asked.
    const blocked = tool === 'workspace_bash' ? host.sandboxProblem() : undefined;
    if (blocked !== undefined) throw new SkillhostError('SANDBOX_UNAVAILABLE', blocked);
    const unwritable =
      tool === 'workspace_write' || tool === 'workspace_edit'
        ? (host.files as WorkspaceFiles).checkWrite(checked.path as string)
        : undefined;
    if (unwritable !== undefined) throw workspaceError(unwritable);
    const decision = host.decide(requestOf(tool, checked));
    host.record(toolDecisionRecord(call, decision));
    if (decision.effect === 'deny')
      throw new SkillhostError('PERMISSION_DENIED', `${tool}: ${decision.reason}`, {
        details: { rule: decision.rule },
      });
    if (decision.effect === 'ask') {
      const confirm = host.confirm;
      if (confirm === undefined)
        throw new SkillhostError(
          'PERMISSION_REQUIRED',
          `${tool}: ${decision.reason}; there is no one to ask`,
          { details: { rule: decision.rule } },
        );
      const question: ToolApprovalQuestion = {
        kind: 'tool',
        tool,
        canonical: canonicalTool(tool) as string,
        workspace: (host.files as WorkspaceFiles).root,
        input: checked,
        summary: summaryOf(tool, checked),
        reason: decision.reason,
      };
      const answer = await confirm(question);
      host.record(toolAnswerRecord(call, answer !== 'no'));
      if (answer === 'no')
        throw new SkillhostError('PERMISSION_DENIED', `${tool}: the user refused`, {
          details: { rule: 'user' },
        });
    }
    const outcome = await operate(host, tool, checked);
    host.record(
      toolCallRecord(call, { details: { ...outcome.audit, is_error: outcome.isError === true } }),
    );
    return {
      isError: outcome.isError === true,
      ...(outcome.code === undefined ? {} : { code: outcome.code }),
      text: outcome.text,
      ...(outcome.data === undefined ? {} : { data: outcome.data }),
    };
  } catch (error) {
    const { code, message } = errorOf(error);
    // An unwritable trail refuses the call as it refuses every capability.
    if (code !== 'AUDIT_UNAVAILABLE') {
      try {
        host.record(toolCallRecord(call, { error }));
      } catch {
        // The failure is already the answer.
      }
    }
    return {
      isError: true,
      code,
      text: code === 'INTERNAL_ERROR' ? `Error: ${message}` : `Error ${code}: ${message}`,
    };
  }
}
