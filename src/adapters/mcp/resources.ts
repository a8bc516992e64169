import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { DIRECTORY_MIME_TYPE } from '@modelcontextprotocol/server/ext/skills';
import { mediaTypeOf, quote } from '../../internal.js';
import {
  type RegistryEntry,
  type SkillFile,
  SkillhostError,
  type SkillRuntime,
} from '../../node/index.js';
import { protocolErrorOf } from './errors.js';
import { parseSkillUri, skillUri } from './uris.js';

/** The skill's own file, under the name the skills extension gives it. */
export const SKILL_FILE = 'SKILL.md';

export interface ResourceLimits {
  /** Most resources `resources/list` returns, over every skill. */
  readonly maxListed: number;
  /** Most files listed per skill (as on activation). */
  readonly perSkill: number;
  /** Deepest folder level listed (as on activation). */
  readonly depth: number;
}

/** A media type from the extension, only when the extension is a known one. */
function knownMediaType(path: string): string | undefined {
  const guess = mediaTypeOf(path, true);
  return guess === mediaTypeOf(path, false) ? guess : undefined;
}

/**
 * A skill's files as MCP resources (`skill://NAME/PATH`). Listings come from
 * `runtime.listFiles` (the activation's capped, link-free walk: names and sizes only) and every
 * read goes through `runtime.readResource`, so the policy, the path checks, the size bound and
 * the audit record are the runtime's own. Only skills the runtime offers (its scope) are served.
 */
export class SkillResources {
  /** The runtime session served; asked for at each use (a server may answer before it opens). */
  readonly #runtime: () => SkillRuntime;
  readonly #limits: ResourceLimits;

  constructor(runtime: () => SkillRuntime, limits: ResourceLimits) {
    this.#runtime = runtime;
    this.#limits = limits;
  }

  /** The offered skill of that name (never a path, never an address), or undefined. */
  offered(name: string): RegistryEntry | undefined {
    return this.#runtime()
      .offered()
      .find((entry) => entry.name === name);
  }

  /** A skill's files through the runtime; a refusal becomes a JSON-RPC error with its code. */
  #files(entry: RegistryEntry): readonly SkillFile[] {
    try {
      return this.#runtime().listFiles(entry.name, {
        maxFiles: this.#limits.perSkill,
        maxDepth: this.#limits.depth,
      }).files;
    } catch (error) {
      throw protocolErrorOf(error, skillUri(entry.name, ''));
    }
  }

  /** Every offered skill's SKILL.md, then its files, up to the cap. */
  list(): Resource[] {
    const resources: Resource[] = [];
    const room = () => resources.length < this.#limits.maxListed;
    for (const entry of this.#runtime().offered()) {
      if (!room()) break;
      resources.push({
        uri: skillUri(entry.name, SKILL_FILE),
        name: `${entry.name}/${SKILL_FILE}`,
        title: entry.name,
        description: entry.metadata?.description ?? '',
        mimeType: 'text/markdown',
      });
      for (const file of this.#files(entry)) {
        if (!room()) break;
        if (file.kind !== 'file' && file.kind !== 'symlink') continue;
        const mimeType = knownMediaType(file.path);
        resources.push({
          uri: skillUri(entry.name, file.path),
          name: `${entry.name}/${file.path}`,
          ...(mimeType === undefined ? {} : { mimeType }),
          ...(file.size === undefined ? {} : { size: file.size }),
        });
      }
    }
    return resources;
  }

  /**
   * The direct children of a skill folder (`skill://NAME/` or `skill://NAME/sub/`), from the
   * capped listing; undefined when the URI names no such folder.
   */
  directory(raw: string): Resource[] | undefined {
    const parsed = parseSkillUri(raw);
    if (!parsed.ok || !parsed.directory) return undefined;
    const entry = this.offered(parsed.name);
    if (entry === undefined) return undefined;
    const prefix = parsed.path === '' ? '' : `${parsed.path}/`;
    const children: Resource[] = [];
    const folders = new Set<string>();
    if (prefix === '') {
      children.push({ uri: skillUri(entry.name, SKILL_FILE), name: SKILL_FILE });
    }
    for (const file of this.#files(entry)) {
      if (!file.path.startsWith(prefix)) continue;
      const rest = file.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) {
        const mimeType = knownMediaType(file.path);
        children.push({
          uri: skillUri(entry.name, file.path),
          name: rest,
          ...(mimeType === undefined ? {} : { mimeType }),
          ...(file.size === undefined ? {} : { size: file.size }),
        });
        continue;
      }
      const folder = rest.slice(0, slash);
      if (folders.has(folder)) continue;
      folders.add(folder);
      children.push({
        uri: skillUri(entry.name, `${prefix}${folder}/`),
        name: folder,
        mimeType: DIRECTORY_MIME_TYPE,
      });
    }
    return prefix !== '' && children.length === 0 ? undefined : children;
  }

  /**
   * Reads the file a URI names, through the runtime. A URI that is not a plain
   * `skill://NAME/PATH` is refused with RESOURCE_PATH_INVALID before anything is opened; a skill
   * the runtime does not offer is SKILL_NOT_FOUND. Failures are JSON-RPC errors with the code.
   */
  read(raw: string): ReadResourceResult {
    const uri = String(raw).slice(0, 2048);
    const entry = this.#served(uri);
    // The extension always says SKILL.md; a skill may have kept the lowercase spelling.
    const path =
      entry.path === SKILL_FILE
        ? entry.skill.skillFile.slice(entry.skill.directory.length + 1)
        : entry.path;
    try {
      const resource = this.#runtime().readResource(entry.skill.name, path);
      const content =
        resource.content.kind === 'text'
          ? { uri: raw, mimeType: resource.mediaType, text: resource.content.text }
          : { uri: raw, mimeType: resource.mediaType, blob: resource.content.base64 };
      return { contents: [content] };
    } catch (error) {
      throw protocolErrorOf(error, uri);
    }
  }

  /**
   * The offered skill and path a URI names. A refusal here never reaches the runtime, so it is
   * recorded here, as the runtime records its own: a probe for other files leaves a trace.
   */
  #served(uri: string): { readonly skill: RegistryEntry; readonly path: string } {
    const parsed = parseSkillUri(uri);
    if (parsed.ok && !parsed.directory) {
      const skill = this.offered(parsed.name);
      if (skill !== undefined) return { skill, path: parsed.path };
    }
    const shown = quote(uri);
    const refusal = !parsed.ok
      ? new SkillhostError('RESOURCE_PATH_INVALID', `${shown} is refused: ${parsed.reason}`)
      : parsed.directory
        ? new SkillhostError(
            'RESOURCE_PATH_INVALID',
            `${shown} names a folder; list it with resources/directory/read`,
          )
        : new SkillhostError('SKILL_NOT_FOUND', `No skill named ${quote(parsed.name)} is offered`);
    try {
      this.#runtime().recordRefusal({
        event: 'resource-read',
        ...(parsed.ok ? { skill: parsed.name.slice(0, 200) } : {}),
        path: uri,
        error: refusal,
      });
    } catch (error) {
      throw protocolErrorOf(error, uri);
    }
    throw protocolErrorOf(refusal, uri);
  }
}
