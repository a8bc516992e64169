import * as yaml from 'yaml';
import type { YamlEngine } from '../../src/format/yaml-engine.js';

/** The YAML library, for the `yaml` option of tests that import the core modules directly. */
export const yamlLibrary: YamlEngine = yaml;
