import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';

/**
 * One table per tool: each field's kind, bound, description and whether it is required. The
 * JSON Schema a model receives and the check every call's input goes through are both derived
 * from it, so the two can never disagree.
 */

export type FieldKind = 'string' | 'strings' | 'integer' | 'boolean';

export interface FieldRule {
  readonly kind: FieldKind;
  readonly description: string;
  /** Most characters (string), items (strings) or the largest value (integer); unused for boolean. */
  readonly max: number;
  /** For `strings`: most characters per item. */
  readonly maxItem?: number;
  readonly required: boolean;
}

export type FieldTable = Readonly<Record<string, FieldRule>>;

/** A JSON Schema object (draft 2020-12 subset) for a tool's input. */
export interface JsonSchemaObject {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

function fieldSchema(rule: FieldRule): Record<string, unknown> {
  switch (rule.kind) {
    case 'string':
      return { type: 'string', description: rule.description, maxLength: rule.max };
    case 'integer':
      return { type: 'integer', description: rule.description, minimum: 1, maximum: rule.max };
    case 'boolean':
      return { type: 'boolean', description: rule.description };
    case 'strings':
      return {
        type: 'array',
        description: rule.description,
        items: {
          type: 'string',
          ...(rule.maxItem === undefined ? {} : { maxLength: rule.maxItem }),
        },
        maxItems: rule.max,
      };
  }
}

/** The JSON Schema of a table; `extra` adds keywords to a field (an enum of names, say). */
export function schemaOf(
  table: FieldTable,
  extra: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
): JsonSchemaObject {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [key, rule] of Object.entries(table))
    properties[key] = { ...fieldSchema(rule), ...extra[key] };
  return {
    type: 'object',
    properties,
    required: Object.entries(table)
      .filter(([, rule]) => rule.required)
      .map(([key]) => key),
    additionalProperties: false,
  };
}

function invalid(message: string): never {
  throw new SkillhostError('TOOL_INPUT_INVALID', message);
}

/**
 * Checks a tool's input against its table, throwing TOOL_INPUT_INVALID with the field and the
 * rule it broke: a model (or a client) can send anything.
 */
export function checkInput(
  tool: string,
  table: FieldTable,
  input: unknown,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    invalid(`${tool} takes an object of named fields`);
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(table, key)) invalid(`${tool} has no field ${quote(key)}`);
  }
  for (const [key, rule] of Object.entries(table)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (rule.required) invalid(`${tool} needs the field "${key}"`);
      continue;
    }
    switch (rule.kind) {
      case 'string':
        if (typeof value !== 'string') invalid(`${tool}: "${key}" must be a string`);
        if (value.length > rule.max)
          invalid(`${tool}: "${key}" is longer than ${rule.max} characters`);
        break;
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > rule.max)
          invalid(`${tool}: "${key}" must be a whole number from 1 to ${rule.max}`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') invalid(`${tool}: "${key}" must be true or false`);
        break;
      case 'strings':
        if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
          invalid(`${tool}: "${key}" must be a list of strings`);
        if (value.length > rule.max) invalid(`${tool}: "${key}" has more than ${rule.max} items`);
        if (
          rule.maxItem !== undefined &&
          value.some((item: string) => item.length > (rule.maxItem as number))
        )
          invalid(`${tool}: an item of "${key}" is longer than ${rule.maxItem} characters`);
        break;
    }
  }
  return record;
}
