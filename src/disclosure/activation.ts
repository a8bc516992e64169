import type { EntryKind, SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import { SkillhostError } from '../errors.js';
import { showHiddenCharacters } from '../format/characters.js';
import type { ReadLimits } from '../format/limits.js';
import { joinPath } from '../paths.js';
import { quote } from '../quote.js';
import { unusableReason } from '../registry/entries.js';
import type { RegistryEntry, SkillRegistry } from '../registry/registry.js';
import { readSkillDirectory } from '../skill-files/load.js';
import { escapeXmlText } from './available-skills.js';

/** Who activated a skill: the model through a tool, the user by name, or the harness's router. */
export type ActivationTrigger = 'model' | 'user' | 'router';

export interface SkillFile {
  /** Path relative to the skill directory. */
  readonly path: string;
  readonly kind: EntryKind;
  /** Size in bytes (files only). */
  readonly size?: number;
}

export interface Activation {
  readonly name: string;
  readonly address: string;
  readonly source: string;
  readonly trust: 'trusted' | 'untrusted';
  readonly directory: string;
  readonly skillFile: string;
  /** SHA-256 of SKILL.md when the registry has a hasher. */
  readonly contentHash: string | undefined;
  readonly triggeredBy: ActivationTrigger;
  /** True when the skill was already active in this session with the same content: no body is repeated. */
  readonly alreadyActive: boolean;
  /** The Markdown body (empty when already active). */
  readonly body: string;
  /** The skill's files (not their contents), capped. */
  readonly files: readonly SkillFile[];
  /** Files left out of the listing by its caps. */
  readonly unlistedFiles: number;
  /** What the model receives: the body wrapped with the skill's directory and file listing. */
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

export interface SessionOptions {
  readonly fs: SkillFileSystem;
  readonly limits?: Partial<ReadLimits>;
  /** Most files listed on activation (default 100). */
  readonly maxListedFiles?: number;
  /** Deepest folder level listed (default 4). */
  readonly maxListingDepth?: number;
}

const skip = new Set(['.git', 'node_modules', '__pycache__']);

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Lists a skill's files breadth-first, sorted, without following links, within the caps. */
export function listSkillFiles(
  fs: SkillFileSystem,
  directory: string,
  maxFiles: number,
  maxDepth: number,
): { files: SkillFile[]; unlisted: number } {
  const files: SkillFile[] = [];
  let unlisted = 0;
  const queue: Array<{ folder: string; depth: number }> = [{ folder: '', depth: 0 }];
  while (queue.length > 0) {
    const { folder, depth } = queue.shift() as { folder: string; depth: number };
    const listing = fs.listDirectory(folder === '' ? directory : joinPath(directory, folder));
    if (!listing.ok) continue;
    const entries = [...listing.entries].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.kind === 'directory') {
        if (skip.has(entry.name)) continue;
        if (depth + 1 < maxDepth) queue.push({ folder: path, depth: depth + 1 });
        continue;
      }
      if (folder === '' && (entry.name === 'SKILL.md' || entry.name === 'skill.md')) continue;
      if (files.length >= maxFiles) {
        unlisted += 1;
        continue;
      }
      const size =
        entry.kind === 'file' ? fs.status(joinPath(directory, path), false)?.size : undefined;
      files.push(
        size === undefined ? { path, kind: entry.kind } : { path, kind: entry.kind, size },
      );
    }
  }
  return { files, unlisted };
}

/** Keeps a body from closing the wrapper early: the closing tag inside it is defused. */
function defuse(body: string): string {
  return body.replace(/<\/skill_content/gi, '<\\/skill_content');
}

function wrap(
  entry: RegistryEntry,
  body: string,
  files: readonly SkillFile[],
  unlisted: number,
): string {
  // Names are shown, not hidden or removed: a file called "\u202egnp.exe" reads as what it is.
  const listing = files.map((file) =>
    file.kind === 'file' && file.size !== undefined
      ? `${showHiddenCharacters(file.path)} (${formatSize(file.size)})`
      : `${showHiddenCharacters(file.path)} (${file.kind === 'symlink' ? 'link' : file.kind})`,
  );
  if (unlisted > 0) listing.push(`… ${unlisted} more files not listed`);
  const attributes = `name="${escapeXmlText(entry.name)}" source="${escapeXmlText(entry.source.id)}" trust="${entry.source.trust}"`;
  return [
    `<skill_content ${attributes}>`,
    `Skill directory: ${showHiddenCharacters(entry.directory)}`,
    'Relative paths in these instructions are relative to that directory.',
    '',
    defuse(body),
    '',
    files.length === 0 && unlisted === 0
      ? 'The skill has no other files.'
      : `Files in the skill (read them with the skillhost_read tool):\n${listing.map((line) => `- ${line}`).join('\n')}`,
    '</skill_content>',
  ].join('\n');
}

/**
 * L2: the skills activated in one conversation. Activation reads the body fresh from disk,
 * wraps it with the skill's directory and file listing, and is deduplicated: a skill already
 * active with the same content is not sent again.
 */
export class SkillSession {
  readonly #registry: SkillRegistry;
  readonly #options: SessionOptions;
  readonly #active = new Map<
    string,
    { hash: string | undefined; triggeredBy: ActivationTrigger }
  >();

  constructor(registry: SkillRegistry, options: SessionOptions) {
    this.#registry = registry;
    this.#options = options;
  }

  /** Addresses of the skills active in this session, in activation order. */
  get active(): readonly string[] {
    return [...this.#active.keys()];
  }

  isActive(address: string): boolean {
    return this.#active.has(address);
  }

  /** The content hash a skill is active with, or undefined when it is not active. */
  activeHash(address: string): string | undefined {
    return this.#active.get(address)?.hash;
  }

  /** Forgets every activation (a new conversation, or after the context was compacted). */
  reset(): void {
    this.#active.clear();
  }

  /** Forgets one activation, so that the next activation sends the body again. */
  deactivate(address: string): void {
    this.#active.delete(address);
  }

  /**
   * Activates a skill by name (or `name@source`). Names are only looked up in the registry,
   * never used as paths. Throws SKILL_NOT_FOUND, SKILL_UNAVAILABLE or SKILL_INVALID.
   */
  activate(
    nameOrAddress: string,
    options: { readonly triggeredBy: ActivationTrigger },
  ): Activation {
    const entry = this.#registry.resolve(nameOrAddress);
    if (entry === undefined) {
      throw new SkillhostError('SKILL_NOT_FOUND', `No skill named ${quote(nameOrAddress)}`, {
        details: { name: nameOrAddress.slice(0, 200) },
      });
    }
    const unusable = unusableReason(entry.status);
    if (unusable !== undefined) {
      throw new SkillhostError(
        'SKILL_UNAVAILABLE',
        `Skill ${entry.address} cannot be activated: ${unusable}`,
        {
          details: { address: entry.address, status: entry.status },
          diagnostics: entry.diagnostics,
        },
      );
    }
    const { fs } = this.#options;
    const yaml = this.#registry.yaml;
    const fresh = readSkillDirectory(fs, entry.directory, {
      level: 'full',
      mode: 'lenient',
      ...(this.#options.limits === undefined ? {} : { limits: this.#options.limits }),
      ...(yaml === undefined ? {} : { yaml }),
    });
    // The skill is its folder: a name the file claims (now or since discovery) changes nothing.
    if (fresh.skill === undefined) {
      throw new SkillhostError(
        'SKILL_INVALID',
        `Skill ${entry.address} changed on disk and can no longer be loaded; refresh the registry`,
        { details: { address: entry.address }, diagnostics: fresh.diagnostics },
      );
    }
    const hash = this.#registry.contentHash(entry);
    const known = this.#active.get(entry.address);
    const base = {
      name: entry.name,
      address: entry.address,
      source: entry.source.id,
      trust: entry.source.trust,
      directory: entry.directory,
      skillFile: entry.skillFile,
      contentHash: hash,
      triggeredBy: options.triggeredBy,
      diagnostics: fresh.diagnostics,
    };
    if (known !== undefined && known.hash === hash) {
      return {
        ...base,
        alreadyActive: true,
        body: '',
        files: [],
        unlistedFiles: 0,
        text: `Skill ${entry.name} is already active; its instructions were given earlier in this conversation.`,
      };
    }
    const { files, unlisted } = listSkillFiles(
      fs,
      entry.directory,
      this.#options.maxListedFiles ?? 100,
      this.#options.maxListingDepth ?? 4,
    );
    const body = fresh.skill.body ?? '';
    this.#active.set(entry.address, { hash, triggeredBy: options.triggeredBy });
    return {
      ...base,
      alreadyActive: false,
      body,
      files,
      unlistedFiles: unlisted,
      text: wrap(entry, body, files, unlisted),
    };
  }
}
