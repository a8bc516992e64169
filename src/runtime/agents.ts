import { type AgentManifest, isValidAgentName, parseAgentManifest } from '../agents/manifest.js';
import { type ModelPlan, resolveModelPlan } from '../agents/models.js';
import { type AgentPromptTokens, checkAgentBudget, joinSystemPrompt } from '../agents/prompt.js';
import type { SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import { type CatalogFormat, type CatalogResult, renderCatalog } from '../disclosure/catalog.js';
import type { TokenCounter } from '../disclosure/tokens.js';
import { SkillhostError } from '../errors.js';
import { estimateTokens } from '../format/body.js';
import { decodeSkillText } from '../format/text.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { isWithinPath, joinPath } from '../paths.js';
import { quote } from '../quote.js';
import { unusableReason } from '../registry/entries.js';
import type { SkillRuntime } from './types.js';

/** A folder that holds agent folders, searched in order (the first agent of a name wins). */
export interface AgentBase {
  readonly directory: string;
  readonly kind: 'project' | 'user' | 'explicit';
}

/** One agent found in a base, as `agent list` shows it. */
export interface AgentListing {
  readonly name: string;
  readonly directory: string;
  readonly base: AgentBase;
  readonly description: string | undefined;
  /** False when agent.yaml has errors (its diagnostics say why). */
  readonly valid: boolean;
  /** Another agent of the same name in an earlier base wins. */
  readonly shadowed: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** agent.yaml and instructions.md, read and checked. */
export interface AgentDefinition {
  readonly manifest: AgentManifest;
  readonly instructions: string;
  readonly directory: string;
  readonly base: AgentBase;
  readonly diagnostics: readonly Diagnostic[];
}

/** A loaded agent: the agent's files plus the resolved model plan, prompt and token counts. */
export interface LoadedAgent extends AgentDefinition {
  readonly plan: ModelPlan;
  /** Preloaded skills, in manifest order, with their bodies. */
  readonly skills: ReadonlyArray<{
    readonly name: string;
    readonly address: string;
    /** The skill's directory: relative paths in its body resolve against it. */
    readonly directory: string;
    readonly body: string;
  }>;
  /** instructions.md + "\n\n" + each preloaded body. */
  readonly systemPrompt: string;
  /** The catalog of the agent's progressive skills ('' when there are none). */
  readonly catalog: string;
  /** Names in the catalog. */
  readonly catalogSkills: readonly string[];
  /**
   * The catalog as it was rendered: its format, tokens, and per skill what it shows and why
   * (`catalog --explain`'s data), under `catalogBudget` when one was given.
   */
  readonly catalogResult: CatalogResult;
  /** The catalog's budget (`LoadAgentOptions.catalogBudget`), or undefined: every skill in full. */
  readonly catalogBudget: number | undefined;
  readonly tokens: AgentPromptTokens;
  readonly exactTokens: boolean;
  readonly contextBudget: number | undefined;
}

const MANIFEST_BYTES = 64 * 1024;
const INSTRUCTIONS_BYTES = 256 * 1024;
const MAX_AGENTS_PER_BASE = 1000;

function readText(
  fs: SkillFileSystem,
  directory: string,
  name: string,
  maxBytes: number,
): string | undefined {
  const read = fs.readFileWithin(directory, name, { maxBytes });
  if (!read.ok) {
    if (read.problem === 'missing') return undefined;
    throw new SkillhostError(
      'AGENT_FILE_UNREADABLE',
      `${joinPath(directory, name)}: ${read.message}`,
    );
  }
  const decoded = decodeSkillText(read.bytes, joinPath(directory, name));
  if (decoded.text === undefined) {
    throw new SkillhostError(
      'AGENT_FILE_UNREADABLE',
      `${joinPath(directory, name)} is not UTF-8 text`,
    );
  }
  return decoded.text;
}

/**
 * The agent folder `name` in `base`, or undefined when there is none. A folder that is a link is
 * followed only while its real path stays inside the base.
 */
function agentFolder(fs: SkillFileSystem, base: AgentBase, name: string): string | undefined {
  const directory = joinPath(base.directory, name);
  const status = fs.status(directory, false);
  if (status === undefined) return undefined;
  if (status.kind === 'symlink') {
    const realBase = fs.realPath(base.directory);
    const real = fs.realPath(directory);
    if (
      realBase === undefined ||
      real === undefined ||
      !isWithinPath(realBase, real) ||
      real === realBase
    ) {
      throw new SkillhostError(
        'AGENT_OUTSIDE_BASE',
        `Agent folder ${directory} links outside ${base.directory}`,
      );
    }
    if (fs.status(real, true)?.kind !== 'directory') return undefined;
  } else if (status.kind !== 'directory') return undefined;
  return fs.status(joinPath(directory, 'agent.yaml'), false) === undefined ? undefined : directory;
}

/** How agents are read. */
export interface ReadAgentOptions {
  /** The YAML library (or its loader), for an agent.yaml the fast scanner cannot read. */
  readonly yaml?: YamlSource;
}

/**
 * Finds an agent by name and reads it, step by step: the name is checked (never a
 * path), the folder stays inside its base, agent.yaml is parsed and needs `name`, and
 * instructions.md must be there and not empty.
 */
export function readAgent(
  fs: SkillFileSystem,
  bases: readonly AgentBase[],
  name: string,
  options: ReadAgentOptions = {},
): AgentDefinition {
  if (!isValidAgentName(name)) {
    throw new SkillhostError(
      'AGENT_NAME_INVALID',
      `${quote(name)} is not an agent name (letters, digits, '.', '_' and '-'; no path)`,
    );
  }
  for (const base of bases) {
    const directory = agentFolder(fs, base, name);
    if (directory === undefined) continue;
    const manifestFile = joinPath(directory, 'agent.yaml');
    const text = readText(fs, directory, 'agent.yaml', MANIFEST_BYTES) ?? '';
    const parsed = parseAgentManifest(text, manifestFile, name, options);
    if (parsed.manifest === undefined) {
      throw new SkillhostError('AGENT_MANIFEST_INVALID', `${manifestFile} has errors`, {
        diagnostics: parsed.diagnostics,
      });
    }
    const instructions = readText(fs, directory, 'instructions.md', INSTRUCTIONS_BYTES);
    if (instructions === undefined || instructions.trim() === '') {
      throw new SkillhostError(
        'AGENT_INSTRUCTIONS_MISSING',
        `${joinPath(directory, 'instructions.md')} is ${instructions === undefined ? 'missing' : 'empty'}`,
      );
    }
    return {
      manifest: parsed.manifest,
      instructions,
      directory,
      base,
      diagnostics: parsed.diagnostics,
    };
  }
  throw new SkillhostError(
    'AGENT_NOT_FOUND',
    `No agent named ${quote(name)}; looked in ${bases.map((base) => base.directory).join(', ') || '(no agents folders)'}`,
  );
}

/** Every agent folder (with an agent.yaml) in the bases, sorted by name, first base first. */
export function listAgents(
  fs: SkillFileSystem,
  bases: readonly AgentBase[],
  options: ReadAgentOptions = {},
): AgentListing[] {
  const found: AgentListing[] = [];
  const seen = new Set<string>();
  for (const base of bases) {
    const listing = fs.listDirectory(base.directory);
    if (!listing.ok) continue;
    const names = listing.entries
      .filter((entry) => entry.kind === 'directory' || entry.kind === 'symlink')
      .map((entry) => entry.name)
      .filter(isValidAgentName)
      .sort()
      .slice(0, MAX_AGENTS_PER_BASE);
    for (const name of names) {
      let directory: string | undefined;
      try {
        directory = agentFolder(fs, base, name);
      } catch {
        continue;
      }
      if (directory === undefined) continue;
      const manifestFile = joinPath(directory, 'agent.yaml');
      let diagnostics: readonly Diagnostic[] = [];
      let description: string | undefined;
      let valid = false;
      try {
        const parsed = parseAgentManifest(
          readText(fs, directory, 'agent.yaml', MANIFEST_BYTES) ?? '',
          manifestFile,
          name,
          options,
        );
        diagnostics = parsed.diagnostics;
        description = parsed.manifest?.description;
        valid = parsed.manifest !== undefined;
      } catch (error) {
        if (!SkillhostError.isInstance(error)) throw error;
      }
      found.push({
        name,
        directory,
        base,
        description,
        valid,
        shadowed: seen.has(name),
        diagnostics,
      });
      seen.add(name);
    }
  }
  return found;
}

/** What loading an agent needs of a runtime. */
export type AgentHost = Pick<
  SkillRuntime,
  'sources' | 'skills' | 'resolve' | 'offered' | 'activate'
>;

export interface LoadAgentOptions extends ReadAgentOptions {
  /** `--model` and `--provider` from the command line. */
  readonly model?: string;
  readonly provider?: string;
  /** An exact counter (`loadTokenCounter()`); without it, estimates. */
  readonly countTokens?: TokenCounter;
  readonly catalogFormat?: CatalogFormat;
  /**
   * Most tokens the catalog of the agent's progressive skills may take; without it, every skill
   * is in full. Skills cut are still found by the search tool.
   */
  readonly catalogBudget?: number;
}

/**
 * Loads an agent through the runtime: its preloaded skills are activated (by the user's agent,
 * so policy and audit apply) and their bodies join the system prompt in manifest order; the
 * catalog lists the agent's progressive skills (only `deferred_skills` when given); the whole
 * must fit `context_budget`. A listed skill that is missing or unusable is an error naming it.
 */
export function loadAgent(
  runtime: AgentHost,
  fs: SkillFileSystem,
  bases: readonly AgentBase[],
  name: string,
  options: LoadAgentOptions = {},
): LoadedAgent {
  const definition = readAgent(
    fs,
    bases,
    name,
    options.yaml === undefined ? {} : { yaml: options.yaml },
  );
  const { manifest } = definition;
  const plan = resolveModelPlan(manifest.models, {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.provider === undefined ? {} : { provider: options.provider }),
  });
  const where = () => runtime.sources.map((source) => source.root).join(', ') || '(no sources)';
  const skills = manifest.skills.map((skill) => {
    // A name no usable copy answers to may still be there, unusable: say which.
    const entry =
      runtime.resolve(skill) ?? runtime.skills().find((candidate) => candidate.name === skill);

    if (entry === undefined) {
      throw new SkillhostError(
        'AGENT_SKILL_NOT_FOUND',
        `Agent ${manifest.name} lists skill ${quote(skill)}, which is in none of the skill sources: ${where()}`,
        { details: { skill } },
      );
    }
    const unusable = unusableReason(entry.status);
    if (unusable !== undefined) {
      throw new SkillhostError(
        'AGENT_SKILL_UNAVAILABLE',
        `Agent ${manifest.name} lists skill ${entry.address}, which cannot be used: ${unusable}`,
        { details: { skill } },
      );
    }
    // Preloading sends the body again even if this session activated the skill before.
    const activation = runtime.activate(skill, { triggeredBy: 'user', resend: true });
    return {
      name: activation.name,
      address: activation.address,
      directory: activation.directory,
      body: activation.body,
    };
  });
  const systemPrompt = joinSystemPrompt(
    definition.instructions,
    skills.map((skill) => skill.body),
  );
  const preloaded = new Set(skills.map((skill) => skill.name));
  const deferred =
    manifest.deferredSkills === undefined ? undefined : new Set(manifest.deferredSkills);
  for (const skill of manifest.deferredSkills ?? []) {
    const entry = runtime.resolve(skill);
    if (entry === undefined) {
      throw new SkillhostError(
        'AGENT_SKILL_NOT_FOUND',
        `Agent ${manifest.name} defers skill ${quote(skill)}, which is in none of the skill sources: ${where()}`,
        { details: { skill } },
      );
    }
  }
  const progressive = runtime
    .offered()
    .filter(
      (entry) => !preloaded.has(entry.name) && (deferred === undefined || deferred.has(entry.name)),
    );
  const count = options.countTokens ?? estimateTokens;
  const catalog = renderCatalog(
    progressive.map((entry) => ({
      name: entry.name,
      description: entry.metadata?.description ?? '',
      trusted: entry.source.trust === 'trusted',
    })),
    {
      format: options.catalogFormat ?? 'xml',
      countTokens: count,
      ...(options.catalogBudget === undefined ? {} : { budget: options.catalogBudget }),
    },
  );
  const tokens: AgentPromptTokens = {
    instructions: count(definition.instructions),
    skills: Object.fromEntries(skills.map((skill) => [skill.name, count(skill.body)])),
    catalog: catalog.text === '' ? 0 : count(catalog.text),
    total: count(catalog.text === '' ? systemPrompt : `${systemPrompt}\n\n${catalog.text}`),
  };
  checkAgentBudget(manifest.name, tokens, manifest.contextBudget);
  return {
    ...definition,
    plan,
    skills,
    systemPrompt,
    catalog: catalog.text,
    catalogSkills: progressive.map((entry) => entry.name),
    catalogResult: catalog,
    catalogBudget: options.catalogBudget,
    tokens,
    exactTokens: options.countTokens !== undefined,
    contextBudget: manifest.contextBudget,
  };
}

/**
 * The agents folders, highest precedence first: each `--agents DIR`, then
 * `<project>/.agents/agents`, then `~/.agents/agents`.
 */
export function defaultAgentBases(options: {
  readonly directories?: readonly string[];
  readonly projectDir?: string;
  readonly homeDir?: string;
}): AgentBase[] {
  return [
    ...(options.directories ?? []).map((directory) => ({ directory, kind: 'explicit' as const })),
    ...(options.projectDir === undefined
      ? []
      : [{ directory: joinPath(options.projectDir, '.agents/agents'), kind: 'project' as const }]),
    ...(options.homeDir === undefined
      ? []
      : [{ directory: joinPath(options.homeDir, '.agents/agents'), kind: 'user' as const }]),
  ];
}
