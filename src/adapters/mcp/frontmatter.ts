import type * as Yaml from 'yaml';
import { splitFrontmatter } from '../../internal.js';
import type { RegistryEntry } from '../../node/index.js';
import { loadYaml } from '../../node/internal.js';

/** A frontmatter as JSON: what a client parsing the served SKILL.md's YAML gets. */
export type ListedFrontmatter = Record<string, unknown>;

/** The frontmatter as skillhost loaded it (name, description and the optional fields). */
export function registryFrontmatter(entry: RegistryEntry): ListedFrontmatter {
  const metadata = entry.metadata;
  return {
    name: entry.name,
    description: metadata?.description ?? '',
    ...(metadata?.license === undefined ? {} : { license: metadata.license }),
    ...(metadata?.compatibility === undefined ? {} : { compatibility: metadata.compatibility }),
    ...(metadata?.allowedTools === undefined ? {} : { 'allowed-tools': metadata.allowedTools }),
    ...(metadata === undefined || Object.keys(metadata.metadata).length === 0
      ? {}
      : { metadata: { ...metadata.metadata } }),
  };
}

/**
 * The frontmatter of a SKILL.md's text as a client parsing the file sees it: YAML 1.2 with its
 * core schema (numbers and booleans typed, a folded description with its final line break),
 * every field the file has. The skills extension lists this, so that the listing and the served
 * file agree. Undefined when the text has no frontmatter a client could read as a mapping of
 * plain data (an anchor, an alias or a tag: skillhost itself never loads such a skill).
 */
export function parsedFrontmatter(text: string): ListedFrontmatter | undefined {
  const parts = splitFrontmatter(text);
  if (!parts.ok) return undefined;
  // The node entry's loader gives the whole `yaml` package; its type names only what parsing uses.
  const yaml = loadYaml() as unknown as typeof Yaml;
  const document = yaml.parseDocument(parts.frontmatter, { uniqueKeys: true, merge: false });
  if (document.errors.length > 0) return undefined;
  let plain = true;
  yaml.visit(document, {
    Node: (_key, node) => {
      if (yaml.isAlias(node) || node.anchor !== undefined || node.tag !== undefined) plain = false;
    },
  });
  if (!plain) return undefined;
  const value: unknown = document.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as ListedFrontmatter;
}
