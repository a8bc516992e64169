import { resolve } from 'node:path';
import type { SkillFileSystem } from '../deps.js';
import { createNodeFileSystem } from './fs.js';

export interface NodeCliDeps {
  readonly fs: SkillFileSystem;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly resolvePath: (base: string, path: string) => string;
}

/** The real world for the command line: this process's working directory and environment. */
export function createNodeCliDeps(): NodeCliDeps {
  return {
    fs: createNodeFileSystem(),
    cwd: process.cwd(),
    env: process.env,
    resolvePath: (base, path) => resolve(base, path),
  };
}
