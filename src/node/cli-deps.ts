import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CacheStore, ContentHasher, SkillFileSystem } from '../deps.js';
import { createDirectoryCacheStore } from './cache-store.js';
import { readUserConfig, type UserConfig, writeUserConfig } from './config.js';
import { createNodeFileSystem } from './fs.js';
import { sha256 } from './hash.js';

export interface NodeCliDeps {
  readonly fs: SkillFileSystem;
  readonly cwd: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly resolvePath: (base: string, path: string) => string;
  readonly hash: ContentHasher;
  readonly cacheStore: (directory: string) => CacheStore;
  readonly readConfig: (path: string) => UserConfig;
  readonly writeConfig: (path: string, config: UserConfig) => void;
}

/** The real world for the command line: this process's working directory, home and environment. */
export function createNodeCliDeps(): NodeCliDeps {
  return {
    fs: createNodeFileSystem(),
    cwd: process.cwd(),
    homeDir: homedir(),
    env: process.env,
    resolvePath: (base, path) => resolve(base, path),
    hash: sha256,
    cacheStore: createDirectoryCacheStore,
    readConfig: readUserConfig,
    writeConfig: writeUserConfig,
  };
}
