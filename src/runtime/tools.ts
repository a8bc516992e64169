import type { ScriptRunResult } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { canonicalTool } from '../policy/tools.js';
import type { SkillRuntime } from './runtime.js';

/** The model-facing tools, by name. */
export type RuntimeToolName =
  | 'activate_skill'
  | 'read_skill_resource'
  | 'run_skill_script'
  | 'search_skills';

/** A JSON Schema object (draft 2020-12 subset) for a tool's input. */
export interface JsonSchemaObject {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** One tool as a model receives it. */
export interface ToolDefinition {
  readonly name: RuntimeToolName;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
}

/** What a tool call returns: the text the model sees, structured data, and whether it failed. */
export interface ToolCallResult {
  readonly isError: boolean;
  /** The error code when `isError`. */
  readonly code?: string;
  readonly text: string;
  /** Structured content (for clients that take it). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Limits on tool inputs: a model (or a client) can send anything. */
const MAX_NAME = 200;
const MAX_PATH = 1024;
const MAX_QUERY = 2000;
const MAX_ARGS = 64;
const MAX_ARG = 8192;
const MAX_SEARCH_RESULTS = 50;
/** An enum of the catalog's names is offered up to this many skills. */
const MAX_ENUM = 500;

const ORDER: readonly RuntimeToolName[] = [
  'activate_skill',
  'read_skill_resource',
  'run_skill_script',
  'search_skills',
];

/** Whether the host's tool set (the ceiling) holds a tool. */
function hostHas(runtime: SkillRuntime, tool: RuntimeToolName): boolean {
  return runtime.policy.tools.some((name) => (canonicalTool(name) ?? name) === tool);
}

/** The names of the tools offered, without building their definitions (no catalog rendering). */
function offeredToolNames(runtime: SkillRuntime): RuntimeToolName[] {
  if (runtime.offered().length === 0) return [];
  return ORDER.filter(
    (name) => hostHas(runtime, name) && (name !== 'run_skill_script' || runtime.canRunScripts),
  );
}

/**
 * The tools a model receives: none without a usable skill; only those the host's tool set holds
 * (a tool the host lacks is never offered); `run_skill_script` only with a script runner.
 * `activate_skill` takes the catalog's names as an enum while every offered skill is shown in it.
 */
export function runtimeTools(runtime: SkillRuntime): ToolDefinition[] {
  const offered = runtime.offered();
  if (offered.length === 0) return [];
  const catalog = runtime.catalog();
  const shown = catalog.decisions.filter((decision) => decision.level !== 'hidden');
  const hidden = catalog.decisions.length - shown.length;
  const names = shown.map((decision) => decision.name);
  const nameSchema: Record<string, unknown> = {
    type: 'string',
    description: 'The skill name, exactly as the catalog lists it.',
    maxLength: MAX_NAME,
    ...(hidden === 0 && names.length <= MAX_ENUM ? { enum: names } : {}),
  };
  const definitions: Record<RuntimeToolName, ToolDefinition> = {
    activate_skill: {
      name: 'activate_skill',
      description: `Load the full instructions of a skill, with its folder and a listing of its files. Call it when the task matches a skill's description in the catalog, before acting on the task.${hidden > 0 ? ` ${hidden} skills are not listed in the catalog; find them with search_skills.` : ''}`,
      inputSchema: {
        type: 'object',
        properties: { name: nameSchema },
        required: ['name'],
        additionalProperties: false,
      },
    },
    read_skill_resource: {
      name: 'read_skill_resource',
      description:
        "Read one file of a skill (a reference, an asset, a script's source), by its path relative to the skill folder, e.g. references/guide.md.",
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The skill name.', maxLength: MAX_NAME },
          path: {
            type: 'string',
            description: 'Relative path inside the skill folder.',
            maxLength: MAX_PATH,
          },
        },
        required: ['name', 'path'],
        additionalProperties: false,
      },
    },
    run_skill_script: {
      name: 'run_skill_script',
      description:
        "Run a script from an active skill's scripts/ folder in a sandbox (no network, no access to the user's files, a fresh working folder). Arguments are passed as a list, never through a shell. The run may need the user's approval.",
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The skill name.', maxLength: MAX_NAME },
          script: {
            type: 'string',
            description: 'Path of the script inside the skill, e.g. scripts/run.py.',
            maxLength: MAX_PATH,
          },
          args: {
            type: 'array',
            description: 'Arguments for the script.',
            items: { type: 'string', maxLength: MAX_ARG },
            maxItems: MAX_ARGS,
          },
        },
        required: ['name', 'script'],
        additionalProperties: false,
      },
    },
    search_skills: {
      name: 'search_skills',
      description:
        'Search the available skills by what a task needs, including skills the catalog could not list. Returns names, descriptions and relevance scores.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What the task is about.', maxLength: MAX_QUERY },
          limit: {
            type: 'integer',
            description: `Most results (default 10, at most ${MAX_SEARCH_RESULTS}).`,
            minimum: 1,
            maximum: MAX_SEARCH_RESULTS,
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
  };
  return offeredToolNames(runtime).map((name) => definitions[name]);
}

function invalid(message: string): never {
  throw new SkillhostError('TOOL_INPUT_INVALID', message);
}

/** Checks an input object against the fields a tool takes. */
function fields(
  tool: string,
  input: unknown,
  spec: Readonly<
    Record<string, { kind: 'string' | 'strings' | 'integer'; max: number; required: boolean }>
  >,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    invalid(`${tool} takes an object of named fields`);
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(spec, key))
      invalid(`${tool} has no field ${JSON.stringify(key.slice(0, 100))}`);
  }
  for (const [key, rule] of Object.entries(spec)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (rule.required) invalid(`${tool} needs the field "${key}"`);
      continue;
    }
    if (rule.kind === 'string') {
      if (typeof value !== 'string') invalid(`${tool}: "${key}" must be a string`);
      if (value.length > rule.max)
        invalid(`${tool}: "${key}" is longer than ${rule.max} characters`);
    } else if (rule.kind === 'integer') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > rule.max)
        invalid(`${tool}: "${key}" must be a whole number from 1 to ${rule.max}`);
    } else {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
        invalid(`${tool}: "${key}" must be a list of strings`);
      if (value.length > MAX_ARGS) invalid(`${tool}: "${key}" has more than ${MAX_ARGS} items`);
      if (value.some((item: string) => item.length > rule.max))
        invalid(`${tool}: an item of "${key}" is longer than ${rule.max} characters`);
    }
  }
  return record;
}

function describeRun(result: ScriptRunResult): string {
  const stream = (label: string, output: ScriptRunResult['stdout']) => {
    if (output.totalBytes === 0) return '';
    const body =
      output.omittedBytes > 0
        ? `${output.head}\n[… ${output.omittedBytes} bytes not shown …]\n${output.tail}`
        : output.head + output.tail;
    return `<${label}>\n${body}${body.endsWith('\n') ? '' : '\n'}</${label}>\n`;
  };
  const ending = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : result.signal !== null
      ? `killed by ${result.signal}`
      : `exit code ${result.exitCode}`;
  return `${stream('stdout', result.stdout)}${stream('stderr', result.stderr)}[${ending}${result.outputLimited ? ', stopped at the output limit' : ''}; sandbox: ${result.sandbox}]`;
}

/**
 * Executes one model-facing tool call. Failures come back as results with `isError` and a code
 * (the model can read them and recover); nothing a model sends makes this throw.
 */
export async function callRuntimeTool(
  runtime: SkillRuntime,
  name: string,
  input: unknown,
): Promise<ToolCallResult> {
  try {
    const offered = offeredToolNames(runtime).includes(name as RuntimeToolName);

    if (!offered) {
      throw new SkillhostError(
        'TOOL_UNKNOWN',
        `No tool named ${JSON.stringify(String(name).slice(0, 100))} is offered`,
      );
    }
    const inScope = (skill: string) => {
      const bare = skill.includes('@') ? skill.slice(0, skill.indexOf('@')) : skill;
      if (!runtime.offered().some((entry) => entry.name === bare)) {
        throw new SkillhostError(
          'SKILL_NOT_FOUND',
          `No skill named ${JSON.stringify(skill.slice(0, MAX_NAME))} is offered; search_skills lists the skills`,
        );
      }
      return skill;
    };
    switch (name as RuntimeToolName) {
      case 'activate_skill': {
        const { name: skill } = fields(name, input, {
          name: { kind: 'string', max: MAX_NAME, required: true },
        }) as { name: string };
        const activation = runtime.activate(inScope(skill), { triggeredBy: 'model' });
        return {
          isError: false,
          text: activation.alreadyActive
            ? `Skill ${activation.name} is already active; its instructions are above.`
            : activation.text,
          data: {
            name: activation.name,
            address: activation.address,
            directory: activation.directory,
            alreadyActive: activation.alreadyActive,
            files: activation.files.map((file) => file.path),
          },
        };
      }
      case 'read_skill_resource': {
        const { name: skill, path } = fields(name, input, {
          name: { kind: 'string', max: MAX_NAME, required: true },
          path: { kind: 'string', max: MAX_PATH, required: true },
        }) as { name: string; path: string };
        const resource = runtime.readResource(inScope(skill), path);
        if (resource.content.kind === 'text') {
          return {
            isError: false,
            text: resource.content.text,
            data: { path: resource.path, mediaType: resource.mediaType, size: resource.size },
          };
        }
        return {
          isError: false,
          text: `${resource.path} is a binary file (${resource.mediaType}, ${resource.size} bytes); it is not shown as text. Clients that take structured results receive it as base64.`,

          data: {
            path: resource.path,
            mediaType: resource.mediaType,
            size: resource.size,
            base64: resource.content.base64,
          },
        };
      }
      case 'run_skill_script': {
        const {
          name: skill,
          script,
          args,
        } = fields(name, input, {
          name: { kind: 'string', max: MAX_NAME, required: true },
          script: { kind: 'string', max: MAX_PATH, required: true },
          args: { kind: 'strings', max: MAX_ARG, required: false },
        }) as { name: string; script: string; args?: string[] };
        const run = await runtime.runScript(inScope(skill), script, args ?? []);
        const { result } = run;
        return {
          isError: result.timedOut || result.signal !== null,
          ...(result.timedOut ? { code: 'SCRIPT_TIMEOUT' } : {}),
          text: describeRun(result),
          data: {
            exitCode: result.exitCode,
            signal: result.signal,
            timedOut: result.timedOut,
            durationMs: result.durationMs,
            sandbox: result.sandbox,
            approvedBy: run.approvedBy,
            contentHash: run.contentHash,
          },
        };
      }
      case 'search_skills': {
        const { query, limit } = fields(name, input, {
          query: { kind: 'string', max: MAX_QUERY, required: true },
          limit: { kind: 'integer', max: MAX_SEARCH_RESULTS, required: false },
        }) as { query: string; limit?: number };
        const routed = runtime.route(query, { candidates: limit ?? 10 });
        const descriptions = new Map(
          runtime.offered().map((entry) => [entry.name, entry.metadata?.description ?? '']),
        );
        const results = routed.ranked.map((candidate) => ({
          name: candidate.name,
          description: descriptions.get(candidate.name) ?? '',
          score: Math.round(candidate.score * 1000) / 1000,
        }));
        return {
          isError: false,
          text:
            results.length === 0
              ? 'No skill matches.'
              : results
                  .map((result) => `${result.name} (${result.score}): ${result.description}`)
                  .join('\n'),
          data: { results },
        };
      }
    }
    throw new SkillhostError('TOOL_UNKNOWN', 'No such tool');
  } catch (error) {
    if (SkillhostError.isInstance(error)) {
      return { isError: true, code: error.code, text: `Error ${error.code}: ${error.message}` };
    }
    return {
      isError: true,
      code: 'INTERNAL_ERROR',
      text: `Error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
