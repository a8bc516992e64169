// Tests import the core modules directly, not through a public entry: give the parser the YAML
// library the way the `skillhost` entry does. (test/node/yaml-loading.test.ts checks the lazy
// loading of skillhost/node on its own.)
import * as yaml from 'yaml';
import { registerYamlEngine } from '../../src/format/yaml-engine.js';

registerYamlEngine(yaml);
