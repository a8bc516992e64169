import type { ParsedNode, Node as YamlNode } from 'yaml';
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
    for (const error of document.errors) {
      const code =
        error.code === 'DUPLICATE_KEY'
          ? 'YAML_DUPLICATE_KEY'
          : error.code === 'RESOURCE_EXHAUSTION'
            ? 'YAML_TOO_DEEP'
            : 'YAML_SYNTAX';
      problems.push({
        code,
        severity: 'error',
        message:
          code === 'YAML_DUPLICATE_KEY'
            ? 'Duplicate key: each key may appear only once in a mapping'
            : `Invalid YAML: ${libraryMessage(error.message)}`,
        offset: error.pos[0],
      });
    }
    return { data: undefined, locations, problems, fast: false };
  }
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
