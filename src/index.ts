/**
 * skillhost — the runtime-neutral core. Every export is public API (see core.ts, the curated
 * list). Nothing reachable from this entry imports `node:*`. The functions that parse YAML get
 * the `yaml` package, imported here, as their default (`skillhost/node` passes a loader instead,
 * so that it loads the library only when a frontmatter needs more than the fast scanner).
 */
import * as yaml from 'yaml';
import { bindYaml } from './internal.js';

export * from './core.js';

export const {
  createSkillRuntime,
  listAgents,
  loadSkill,
  loadSkillDirectory,
  parseAgentManifest,
  parseSkill,
  readAgent,
  readSkillDirectory,
  validateSkillPaths,
} = bindYaml(yaml);
