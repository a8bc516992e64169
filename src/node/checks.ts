/**
 * The node side of the narrow door of the file commands (see src/checks.ts): the validator with
 * the YAML library's lazy loader bound in, and nothing else of skillhost/node. Never re-exported
 * by a public entry.
 */
import { type ValidatePathsOptions, validateSkillPaths as validate } from '../checks.js';
import { loadYaml } from './yaml.js';

export * from '../checks.js';
export { treeCheckHelper } from './walk-helper.js';
export { loadYaml } from './yaml.js';

/** `validateSkillPaths`, with the YAML library loaded only for a frontmatter that needs it. */
export function validateSkillPaths(paths: readonly string[], options: ValidatePathsOptions) {
  return validate(paths, options.yaml === undefined ? { ...options, yaml: loadYaml } : options);
}
