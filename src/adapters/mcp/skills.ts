import {
  type Skill,
  type SkillReadResult,
  type SkillSource,
  SkillsExtension,
} from '@modelcontextprotocol/server/ext/skills';
import type { RegistryEntry } from '../../node/index.js';
import type { SkillResources } from './resources.js';
import { SKILL_FILE } from './resources.js';
import { parseSkillUri, skillUri } from './uris.js';

/** Skills per `skills/list` page. */
const PAGE_SIZE = 100;

/** What a listing shows of a skill's frontmatter (see `SkillServerHub.listedFrontmatter`). */
export type FrontmatterOf = (entry: RegistryEntry) => Skill['frontmatter'];

/**
 * Files are `dynamic`: publishing digests would mean reading every file of every skill on each
 * listing, outside the runtime's bounds and audit. Hosts discover files through directory reads
 * and read them through `resources/read`, which the runtime answers.
 */
function skillOf(entry: RegistryEntry, frontmatterOf: FrontmatterOf): Skill {
  return {
    uri: skillUri(entry.name, SKILL_FILE),
    frontmatter: frontmatterOf(entry),
    resources: 'dynamic',
  };
}

function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The MCP skills extension (`skills/list`, `skills/get`, `resources/directory/read`) answered
 * from the runtime: the offered skills, their capped listings, reads through the runtime.
 */
export function skillsExtension(
  resources: SkillResources,
  offered: () => RegistryEntry[],
  frontmatterOf: FrontmatterOf,
) {
  const source: SkillSource = {
    list: async ({ cursor }) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      const skills = offered();
      const from = Number.isSafeInteger(start) && start >= 0 ? start : 0;
      const page = skills
        .slice(from, from + PAGE_SIZE)
        .map((entry) => skillOf(entry, frontmatterOf));
      const next = from + PAGE_SIZE;
      return { skills: page, ...(next < skills.length ? { nextCursor: String(next) } : {}) };
    },
    get: async (uri) => {
      const parsed = parseSkillUri(uri);
      if (!parsed.ok || parsed.directory || parsed.path !== SKILL_FILE) return undefined;
      const entry = resources.offered(parsed.name);
      return entry === undefined ? undefined : skillOf(entry, frontmatterOf);
    },
    read: async (uri): Promise<SkillReadResult> => {
      const [content] = resources.read(uri).contents;
      if (content !== undefined && 'text' in content)
        return { text: content.text, ...(content.mimeType ? { mimeType: content.mimeType } : {}) };
      const blob = content !== undefined && 'blob' in content ? content.blob : '';
      return {
        bytes: base64Bytes(blob),
        ...(content?.mimeType ? { mimeType: content.mimeType } : {}),
      };
    },
    readDirectory: async (uri) => {
      const children = resources.directory(uri);
      return children === undefined ? undefined : { resources: children };
    },
    listResources: async () => resources.list(),
  };
  // Entries a host would refuse (a name the extension's rules reject) are left out of
  // skills/list; such a skill stays reachable through the tools and prompts.
  return new SkillsExtension({ source, onWarning: () => {} });
}
