import type { Code } from '../codes.js';
import { createDiagnostic, type Diagnostic, type Severity } from '../diagnostics.js';
import { LineIndex } from '../format/text.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { parseYamlFast } from '../format/yaml-fast.js';
import { parseYamlWithLibrary } from '../format/yaml-library.js';
import {
  type FieldLocation,
  type FrontmatterValue,
  isFrontmatterMap,
} from '../format/yaml-types.js';
import { quote } from '../quote.js';

/** `models` in agent.yaml: provider, preferred and fallback. */
export interface AgentModels {
  readonly provider?: string;
  readonly preferred?: string;
  readonly fallback?: string;
}

/** agent.yaml, as the agent format lists it, plus `deferred_skills` (SPEC.md §8). */
export interface AgentManifest {
  readonly name: string;
  readonly description?: string;
  readonly models?: AgentModels;
  /** Tokens the system prompt and the catalog together may take. */
  readonly contextBudget?: number;
  /** Skills preloaded in full: their bodies join the system prompt, in this order. */
  readonly skills: readonly string[];
  /** Skills offered progressively (catalog only); when present, the agent's catalog holds only these. */
  readonly deferredSkills?: readonly string[];
  /**
   * The agent's tools, as tool names or devices (`/dev/fs/read`, `/dev/shell`, `/dev/scripts`,
   * `Read`, `Bash`): the host's tools narrowed to these, never widened; the skill mechanics
   * (activate, read a skill's file, search) stay. Absent: the host's tools.
   */
  readonly tools?: readonly string[];
}

export interface ParsedAgentManifest {
  /** The manifest, when it has no errors. */
  readonly manifest: AgentManifest | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

const FIELDS = new Set([
  'name',
  'description',
  'models',
  'context_budget',
  'skills',
  'deferred_skills',
  'tools',
]);
const MODEL_FIELDS = new Set(['provider', 'preferred', 'fallback']);
const MAX_BUDGET = 10_000_000;
const MAX_DEPTH = 8;
const MAX_LIST = 500;

export interface AgentManifestOptions {
  /** The YAML library (or its loader), for a manifest the fast scanner cannot read. */
  readonly yaml?: YamlSource;
}

/**
 * Parses and checks agent.yaml. Every diagnostic has the file, a line and a column; unknown
 * fields are warnings, wrong types and a missing `name` are errors.
 *
 * @example parseAgentManifest('name: code-analyst\nskills: [code-analysis]\n', 'agents/code-analyst/agent.yaml', 'code-analyst')
 */
export function parseAgentManifest(
  source: string,
  file: string,
  directoryName?: string,
  options: AgentManifestOptions = {},
): ParsedAgentManifest {
  const text = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const index = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const report = (code: Code, severity: Severity, message: string, offset: number) => {
    const position = index.position(offset);
    diagnostics.push(
      createDiagnostic(code, severity, message, file, position.line, position.column),
    );
  };
  const yaml = parseYamlFast(text) ?? parseYamlWithLibrary(text, MAX_DEPTH, options.yaml);
  for (const problem of yaml.problems) {
    // Flow style is only a portability concern of SKILL.md (the reference validator's parser).
    if (problem.code === 'YAML_FLOW_STYLE') continue;
    report(problem.code, problem.severity, problem.message, problem.offset);
  }

  if (yaml.data === undefined || diagnostics.some((item) => item.severity === 'error')) {
    if (!diagnostics.some((item) => item.severity === 'error')) {
      report('AGENT_MANIFEST_INVALID', 'error', 'agent.yaml must be a mapping of fields', 0);
    }
    return { manifest: undefined, diagnostics };
  }
  const data = yaml.data;
  const at = (key: string, where: 'key' | 'value' = 'value'): number => {
    const location: FieldLocation | undefined = yaml.locations.get(key);
    if (location === undefined) return 0;
    return where === 'key' ? location.keyOffset : location.valueOffset;
  };
  for (const key of Object.keys(data)) {
    if (!FIELDS.has(key)) {
      report(
        'AGENT_FIELD_UNKNOWN',
        'warning',
        `Unknown field ${quote(key)} in agent.yaml is ignored`,
        at(key, 'key'),
      );
    }
  }
  const text_ = (key: string, value: FrontmatterValue | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      report('AGENT_FIELD_INVALID', 'error', `${quote(key)} must be a string`, at(key));
      return undefined;
    }
    return value;
  };
  const name = text_('name', data.name)?.trim();
  if (name === undefined || name === '') {
    if (data.name === undefined || typeof data.name === 'string') {
      report(
        'AGENT_FIELD_MISSING',
        'error',
        "agent.yaml needs a non-empty 'name'",
        data.name === undefined ? 0 : at('name'),
      );
    }
  } else if (directoryName !== undefined && name !== directoryName) {
    report(
      'AGENT_NAME_MISMATCH',
      'warning',
      `The agent is named ${quote(name)} but its folder is ${quote(directoryName)}`,
      at('name'),
    );
  }
  const description = text_('description', data.description);

  let models: AgentModels | undefined;
  if (data.models !== undefined) {
    if (!isFrontmatterMap(data.models)) {
      report(
        'AGENT_FIELD_INVALID',
        'error',
        "'models' must be a mapping of provider, preferred and fallback",
        at('models'),
      );
    } else {
      const children = yaml.locations.get('models')?.children;
      const entries: Record<string, string> = {};
      for (const [key, value] of Object.entries(data.models)) {
        const offset = children?.get(key)?.keyOffset ?? at('models');
        if (!MODEL_FIELDS.has(key)) {
          report(
            'AGENT_FIELD_UNKNOWN',
            'warning',
            `Unknown field ${quote(`models.${key}`)} is ignored`,
            offset,
          );
          continue;
        }
        if (typeof value !== 'string' || value.trim() === '') {
          report(
            'AGENT_FIELD_INVALID',
            'error',
            `${quote(`models.${key}`)} must be a non-empty string`,
            children?.get(key)?.valueOffset ?? offset,
          );
          continue;
        }
        entries[key] = value.trim();
      }
      models = entries;
    }
  }

  let contextBudget: number | undefined;
  if (data.context_budget !== undefined) {
    const raw = data.context_budget;
    const value = typeof raw === 'string' ? raw.trim().replace(/_/g, '') : undefined;
    const number = value !== undefined && /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number <= 0 || number > MAX_BUDGET) {
      report(
        'AGENT_FIELD_INVALID',
        'error',
        `'context_budget' must be a whole number of tokens from 1 to ${MAX_BUDGET}`,
        at('context_budget'),
      );
    } else contextBudget = number;
  }

  const list = (key: string, noun = 'skill names'): string[] | undefined => {
    const value = data[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      report(
        'AGENT_FIELD_INVALID',
        'error',
        `${quote(key)} must be a list of ${noun}${typeof value === 'string' ? ` (write "${key}: [${value.slice(0, 40)}]" or one "- name" per line)` : ''}`,
        at(key),
      );
      return undefined;
    }
    if (value.length > MAX_LIST) {
      report(
        'AGENT_FIELD_INVALID',
        'error',
        `${quote(key)} lists more than ${MAX_LIST} ${noun}`,
        at(key),
      );
      return undefined;
    }
    const names: string[] = [];
    for (const item of value as readonly FrontmatterValue[]) {
      if (typeof item !== 'string' || item.trim() === '') {
        report('AGENT_FIELD_INVALID', 'error', `${quote(key)} must hold only ${noun}`, at(key));
        return undefined;
      }
      const skill = item.trim();
      if (names.includes(skill)) {
        report(
          'AGENT_FIELD_INVALID',
          'warning',
          `${quote(key)} lists ${quote(skill)} twice; once is enough`,
          at(key),
        );
        continue;
      }
      names.push(skill);
    }
    return names;
  };
  const skills = list('skills') ?? [];
  const deferredSkills = list('deferred_skills');
  const tools = list('tools', 'tool names or devices');
  for (const skill of deferredSkills ?? []) {
    if (skills.includes(skill)) {
      report(
        'AGENT_FIELD_INVALID',
        'warning',
        `${quote(skill)} is both preloaded (skills) and deferred (deferred_skills); it is preloaded`,
        at('deferred_skills'),
      );
    }
  }
  if (diagnostics.some((item) => item.severity === 'error') || name === undefined || name === '') {
    return { manifest: undefined, diagnostics };
  }
  return {
    manifest: {
      name,
      ...(description === undefined ? {} : { description }),
      ...(models === undefined ? {} : { models }),
      ...(contextBudget === undefined ? {} : { contextBudget }),
      skills,
      ...(deferredSkills === undefined
        ? {}
        : { deferredSkills: deferredSkills.filter((skill) => !skills.includes(skill)) }),
      ...(tools === undefined ? {} : { tools }),
    },
    diagnostics,
  };
}

/** Whether a string can name an agent: an identifier, never a path. */
export function isValidAgentName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 128 &&
    /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) &&
    !name.includes('..')
  );
}
