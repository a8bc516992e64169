import type { ParsedNode, Node as YamlNode } from 'yaml';
import {
  originalOffset,
  type QuotedContinuation,
  repairQuotedContinuation,
} from './yaml-continuation.js';
import { resolveYamlEngine, type YamlEngine, type YamlSource } from './yaml-engine.js';
import type {
  FieldLocation,
  FrontmatterMap,
  FrontmatterValue,
  YamlProblem,
  YamlResult,
} from './yaml-types.js';

const parseOptions = {
  schema: 'failsafe',
  uniqueKeys: true,
  prettyErrors: false,
  strict: true,
  version: '1.2',
  merge: false,
} as const;

const directiveLine = /^%/m;

interface BuildState {
  /** The YAML library of this parse. */
  readonly engine: YamlEngine;
  readonly problems: YamlProblem[];
  readonly maxDepth: number;
  reportedDepth: boolean;
  reportedAlias: boolean;
  reportedTag: boolean;
  reportedFlow: boolean;
}

function nodeOffset(node: YamlNode | null | undefined, fallback: number): number {
  return node?.range?.[0] ?? fallback;
}

/** Finds the anchor (`&name`) or tag (`!tag`) written before a node, for a precise position. */
function markerOffset(source: string, nodeStart: number, marker: string): number {
  const lineStart = source.lastIndexOf('\n', nodeStart - 1) + 1;
  const found = source.lastIndexOf(marker, nodeStart);
  return found >= lineStart ? found : nodeStart;
}

function checkNodeMarkers(node: YamlNode, source: string, state: BuildState): void {
  const start = nodeOffset(node, 0);
  if (node.anchor !== undefined && !state.reportedAlias) {
    state.reportedAlias = true;
    state.problems.push({
      code: 'YAML_ANCHOR_OR_ALIAS',
      severity: 'error',
      message: `YAML anchor &${node.anchor} is not allowed in frontmatter`,
      offset: markerOffset(source, start, `&${node.anchor}`),
    });
  }
  if (node.tag !== undefined && !state.reportedTag) {
    state.reportedTag = true;
    state.problems.push({
      code: 'YAML_TAG',
      severity: 'error',
      message: `YAML tag ${node.tag} is not allowed in frontmatter`,
      offset: markerOffset(source, start, '!'),
    });
  }
  const { engine } = state;
  if ((engine.isMap(node) || engine.isSeq(node)) && node.flow === true && !state.reportedFlow) {
    state.reportedFlow = true;
    state.problems.push({
      code: 'YAML_FLOW_STYLE',
      severity: 'warning',
      message:
        'Flow-style YAML (brackets or braces) is valid YAML, but the reference validator rejects it',
      offset: start,
    });
  }
}

function build(
  node: ParsedNode | YamlNode | null,
  source: string,
  depth: number,
  state: BuildState,
  fallbackOffset: number,
): FrontmatterValue | undefined {
  if (node === null) return '';
  const { engine } = state;
  if (engine.isAlias(node)) {
    if (!state.reportedAlias) {
      state.reportedAlias = true;
      state.problems.push({
        code: 'YAML_ANCHOR_OR_ALIAS',
        severity: 'error',
        message: `YAML alias *${node.source} is not allowed in frontmatter`,
        offset: nodeOffset(node, fallbackOffset),
      });
    }
    return undefined;
  }
  checkNodeMarkers(node, source, state);
  if (engine.isScalar(node)) {
    const value = node.value;
    return typeof value === 'string' ? value : value === null ? '' : String(value);
  }
  if (depth >= state.maxDepth) {
    if (!state.reportedDepth) {
      state.reportedDepth = true;
      state.problems.push({
        code: 'YAML_TOO_DEEP',
        severity: 'error',
        message: `Frontmatter nests deeper than ${state.maxDepth} levels`,
        offset: nodeOffset(node, fallbackOffset),
      });
    }
    return undefined;
  }
  if (engine.isSeq(node)) {
    const items: FrontmatterValue[] = [];
    for (const item of node.items) {
      const value = build(
        item as YamlNode | null,
        source,
        depth + 1,
        state,
        nodeOffset(node, fallbackOffset),
      );
      if (value !== undefined) items.push(value);
    }
    return items;
  }
  if (engine.isMap(node)) {
    return buildMap(node, source, depth, state, undefined);
  }
  return undefined;
}

function buildMap(
  node: YamlNode,
  source: string,
  depth: number,
  state: BuildState,
  locations: Map<string, FieldLocation> | undefined,
): FrontmatterMap | undefined {
  const { engine } = state;
  if (!engine.isMap(node)) return undefined;
  const result: Record<string, FrontmatterValue> = Object.create(null);
  const mapStart = nodeOffset(node, 0);
  for (const pair of node.items) {
    const keyNode = pair.key as YamlNode | null;
    const keyStart = nodeOffset(keyNode, mapStart);
    if (keyNode === null || !engine.isScalar(keyNode)) {
      if (keyNode !== null && engine.isAlias(keyNode))
        build(keyNode, source, depth + 1, state, keyStart);
      else
        state.problems.push({
          code: 'YAML_COMPLEX_KEY',
          severity: 'error',
          message:
            keyNode === null
              ? 'A mapping entry has no key'
              : 'A mapping key is a collection; keys must be plain text',
          offset: keyStart,
        });
      continue;
    }
    checkNodeMarkers(keyNode, source, state);
    const key = typeof keyNode.value === 'string' ? keyNode.value : String(keyNode.value ?? '');
    const valueNode = pair.value as YamlNode | null;
    const valueStart = nodeOffset(valueNode, nodeOffset(keyNode, mapStart));
    const value = build(valueNode, source, depth + 1, state, valueStart);
    if (value === undefined) continue;
    result[key] = value;
    if (locations !== undefined) {
      const children =
        valueNode !== null && engine.isMap(valueNode)
          ? childLocations(engine, valueNode, mapStart)
          : undefined;
      locations.set(
        key,
        children === undefined
          ? { keyOffset: keyStart, valueOffset: valueStart }
          : { keyOffset: keyStart, valueOffset: valueStart, children },
      );
    }
  }
  return result;
}

function childLocations(
  engine: YamlEngine,
  node: YamlNode,
  fallback: number,
): Map<string, FieldLocation> {
  const children = new Map<string, FieldLocation>();
  if (!engine.isMap(node)) return children;
  for (const pair of node.items) {
    const keyNode = pair.key as YamlNode | null;
    if (keyNode === null || !engine.isScalar(keyNode)) continue;
    const key = typeof keyNode.value === 'string' ? keyNode.value : String(keyNode.value ?? '');
    const keyOffset = nodeOffset(keyNode, fallback);
    children.set(key, {
      keyOffset,
      valueOffset: nodeOffset(pair.value as YamlNode | null, keyOffset),
    });
  }
  return children;
}

function libraryMessage(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, '');
}

/** `key: >` or `key: |` (with its chomping and indentation indicators) and what follows on the line. */
const blockIndicatorLine = /^(\s*(?:-\s+)?[^\s#:][^:#]*:[ \t]+)([|>][-+1-9]{0,2})([ \t]*)(.*)$/;
/** `key: value` where the value itself holds ": ". */
const colonInValue = /^(\s*(?:-\s+)?[^\s#:'"][^:#]*:[ \t]+)([^'"\s|>[{][^#]*?)(:)(?:[ \t]|$)/;

/**
 * The two YAML mistakes real skills make most, told precisely: text on the line of a `>` or `|`
 * block indicator (YAML reads no text there), and an unquoted value holding ": " (read as a
 * nested mapping). The offset points at the offending character; anything else stays a
 * YAML_SYNTAX problem at the library's position.
 */
function syntaxProblem(source: string, offset: number, message: string): YamlProblem {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = source.indexOf('\n', lineStart);
  const line = source.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).replace(/\r$/, '');
  const block = blockIndicatorLine.exec(line);
  if (
    block !== null &&
    (block[4] as string).trim() !== '' &&
    !(block[4] as string).startsWith('#')
  ) {
    const indicator = block[2] as string;
    return {
      code: 'YAML_BLOCK_SCALAR_TEXT',
      severity: 'error',
      message: `Text follows the block indicator '${indicator}' on the same line; a block value starts on the next line`,
      offset:
        lineStart + (block[1] as string).length + indicator.length + (block[3] as string).length,
    };
  }
  const colon = /Nested mappings|Implicit map keys|mapping values/i.test(message)
    ? colonInValue.exec(line)
    : null;
  if (colon !== null)
    return {
      code: 'YAML_SYNTAX',
      severity: 'error',
      message: `Invalid YAML: ${message}: the value holds ": ", which YAML reads as a nested key`,
      offset: lineStart + (colon[1] as string).length + (colon[2] as string).length,
    };
  return { code: 'YAML_SYNTAX', severity: 'error', message: `Invalid YAML: ${message}`, offset };
}

/**
 * Parses frontmatter with the `yaml` package (given as `yaml`, loaded only now if it is a
 * loader): failsafe schema (every scalar is text), unique keys, and no anchors, aliases, tags or
 * directives. Never throws; problems carry offsets. Without a library, says so as a problem.
 */
export function parseYamlWithLibrary(
  source: string,
  maxDepth: number,
  yaml: YamlSource | undefined,
): YamlResult {
  const problems: YamlProblem[] = [];
  const locations = new Map<string, FieldLocation>();
  const engine = resolveYamlEngine(yaml);
  if (engine === undefined) {
    problems.push({
      code: 'YAML_LIBRARY_MISSING',
      severity: 'error',
      message:
        'This frontmatter needs the YAML library, and none was given: pass the yaml package (or a function that loads it) as the yaml option',
      offset: 0,
    });
    return { data: undefined, locations, problems, fast: false };
  }
  const directive = directiveLine.exec(source);
  if (directive !== null) {
    problems.push({
      code: 'YAML_DIRECTIVE',
      severity: 'error',
      message: 'YAML directives (lines starting with %) are not allowed in frontmatter',
      offset: directive.index,
    });
    return { data: undefined, locations, problems, fast: false };
  }
  let document: ReturnType<YamlEngine['parseDocument']>;
  try {
    document = engine.parseDocument(source, parseOptions);
  } catch (error) {
    problems.push({
      code: 'YAML_SYNTAX',
      severity: 'error',
      message: `The YAML parser failed: ${error instanceof Error ? error.message : String(error)}`,
      offset: 0,
    });
    return { data: undefined, locations, problems, fast: false };
  }
  if (document.errors.length > 0) {
    const repaired = readQuotedContinuation(engine, source, maxDepth);
    if (repaired !== undefined) return repaired;
    for (const error of document.errors) {
      const code =
        error.code === 'DUPLICATE_KEY'
          ? 'YAML_DUPLICATE_KEY'
          : error.code === 'RESOURCE_EXHAUSTION'
            ? 'YAML_TOO_DEEP'
            : 'YAML_SYNTAX';
      const problem =
        code === 'YAML_SYNTAX'
          ? syntaxProblem(source, error.pos[0], libraryMessage(error.message))
          : ({
              code,
              severity: 'error',
              message:
                code === 'YAML_DUPLICATE_KEY'
                  ? 'Duplicate key: each key may appear only once in a mapping'
                  : `Invalid YAML: ${libraryMessage(error.message)}`,
              offset: error.pos[0],
            } satisfies YamlProblem);
      // The library may report one mistake twice (the block header, then its text): once is enough.
      if (!problems.some((seen) => seen.code === problem.code && seen.offset === problem.offset))
        problems.push(problem);
    }
    return { data: undefined, locations, problems, fast: false };
  }
  return buildResult(engine, document, source, maxDepth, problems, locations);
}

/** Builds the frontmatter map from a document the library parsed without errors. */
function buildResult(
  engine: YamlEngine,
  document: ReturnType<YamlEngine['parseDocument']>,
  source: string,
  maxDepth: number,
  problems: YamlProblem[],
  locations: Map<string, FieldLocation>,
): YamlResult {
  const state: BuildState = {
    engine,
    problems,
    maxDepth,
    reportedDepth: false,
    reportedAlias: false,
    reportedTag: false,
    reportedFlow: false,
  };
  const root = document.contents as YamlNode | null;
  if (root === null || !engine.isMap(root)) {
    if (root !== null) build(root, source, 0, state, 0);
    problems.push({
      code: 'FRONTMATTER_NOT_MAPPING',
      severity: 'error',
      message:
        root === null
          ? 'The frontmatter is empty; it must hold name and description'
          : `The frontmatter must be a mapping of fields, not ${engine.isSeq(root) ? 'a list' : 'a single value'}`,
      offset: nodeOffset(root, 0),
    });
    return { data: undefined, locations, problems, fast: false };
  }
  checkNodeMarkers(root, source, state);
  const data = buildMap(root, source, 0, state, locations);
  return { data, locations, problems, fast: false };
}

function shiftLocation(location: FieldLocation, repair: QuotedContinuation): FieldLocation {
  const children =
    location.children === undefined
      ? undefined
      : new Map(
          [...location.children].map(
            ([key, child]) => [key, shiftLocation(child, repair)] as const,
          ),
        );
  return {
    keyOffset: originalOffset(repair, location.keyOffset),
    valueOffset: originalOffset(repair, location.valueOffset),
    ...(children === undefined ? {} : { children }),
  };
}

/**
 * A frontmatter the library rejects only because a quoted value continues at column 0 (see
 * `repairQuotedContinuation`): read as the popular readers read it, with a portability warning;
 * every position is mapped back to the original text.
 */
function readQuotedContinuation(
  engine: YamlEngine,
  source: string,
  maxDepth: number,
): YamlResult | undefined {
  const repair = repairQuotedContinuation(source);
  if (repair === undefined) return undefined;
  const document = engine.parseDocument(repair.text, parseOptions);
  if (document.errors.length > 0) return undefined;
  const problems: YamlProblem[] = [];
  const locations = new Map<string, FieldLocation>();
  const result = buildResult(engine, document, repair.text, maxDepth, problems, locations);
  return {
    data: result.data,
    locations: new Map(
      [...result.locations].map(
        ([key, location]) => [key, shiftLocation(location, repair)] as const,
      ),
    ),
    problems: [
      {
        code: 'YAML_QUOTED_CONTINUATION',
        severity: 'warning',
        message: `The quoted value of '${repair.key}' continues on a line at column 0: common YAML readers accept it, YAML 1.2 does not`,
        offset: repair.offset,
      },
      ...result.problems.map((problem) => ({
        ...problem,
        offset: originalOffset(repair, problem.offset),
      })),
    ],
    fast: false,
  };
}
