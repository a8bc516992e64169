import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function files(directory: string, extension: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...files(path, extension));
    else if (path.endsWith(extension) && !path.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

const importPattern =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(importPattern)) found.push((match[1] ?? match[2]) as string);
  return found;
}

/** The layer of a source file: its top folder under src/, or `base` for the shared root files. */
function layerOf(file: string): string {
  const path = relative(src, file);
  const [first] = path.split('/');
  if (['index.ts', 'core.ts', 'internal.ts', 'checks.ts'].includes(path)) return 'root';
  if (path.startsWith('cli/host/')) return 'cli-host';
  return path.includes('/') ? (first as string) : 'base';
}

/** Which layers each layer may import (besides itself and `base`). */
const allowed: Record<string, readonly string[]> = {
  base: [],
  format: [],
  policy: [],
  audit: [],
  'skill-files': ['format', 'policy'],
  registry: ['format', 'skill-files'],
  disclosure: ['format', 'registry', 'skill-files'],
  agents: ['format'],
  // Installing skills: sources, the lockfile, archive entry rules, what an update changes (pure).
  install: ['format'],
  runtime: ['format', 'skill-files', 'registry', 'disclosure', 'policy', 'audit', 'agents'],
  // The context lifecycle: the skill ledger, pruning, compaction, the skills-state block (core).
  context: ['format', 'agents', 'runtime'],
  // The agent loop: the runtime's tools driven by a model through the AI SDK, its context managed.
  loop: ['format', 'policy', 'agents', 'runtime', 'context'],
  root: [
    'format',
    'skill-files',
    'registry',
    'disclosure',
    'policy',
    'audit',
    'agents',
    'runtime',
    'context',
    'loop',
    'install',
  ],
  testing: [
    'root',
    'format',
    'skill-files',
    'registry',
    'disclosure',
    'policy',
    'audit',
    'agents',
    'runtime',
  ],
  node: ['root'],
  adapters: ['root', 'node'],
  cli: ['root', 'node', 'adapters', 'cli-host'],
  // The command line's plumbing next to the bin: the real world (process, terminal, config file).
  'cli-host': ['node', 'cli'],
};

/** The files cli/ and adapters/ may import the library through. */
const DOORS = [
  'src/index.ts',
  'src/node/index.ts',
  'src/internal.ts',
  'src/node/internal.ts',
  // The narrow door of the file commands (validate, to-prompt, read-properties).
  'src/node/checks.ts',
];
/** The files node/ may import the core through. */
const NODE_DOORS = ['src/core.ts', 'src/internal.ts', 'src/checks.ts'];

/** Packages each layer may import. */
const allowedPackages: Record<string, readonly string[]> = {
  format: ['yaml'],
  root: ['yaml'],
  disclosure: ['gpt-tokenizer', 'stemmer'],
  // Loaded with import() when a model is called; only types are imported statically
  // (@ai-sdk/provider: the model interface the providers implement, types only).
  loop: [
    'ai',
    '@ai-sdk/provider',
    '@ai-sdk/anthropic',
    '@ai-sdk/openai',
    '@ai-sdk/openai-compatible',
  ],
  // Only the AI SDK's message types: the context manager never calls a model itself.
  context: ['ai'],
  // Only the MCP SDK's validator types: sdk-shims.ts stands in for the SDK's `_shims` in the bundle.
  'cli-host': ['@modelcontextprotocol/server'],
};

function isNodeBuiltin(specifier: string): boolean {
  return (
    specifier.startsWith('node:') ||
    ['fs', 'path', 'os', 'child_process', 'url', 'crypto'].includes(specifier)
  );
}

interface Source {
  readonly file: string;
  readonly text: string;
}

/** Checks every internal import of the given sources against the layer rules. */
function layerViolations(sources: readonly Source[]): string[] {
  const violations: string[] = [];
  for (const { file, text } of sources) {
    const layer = layerOf(file);
    const rel = relative(root, file);
    for (const specifier of importsOf(file, text)) {
      if (isNodeBuiltin(specifier)) {
        if (layer !== 'node' && layer !== 'cli-host')
          violations.push(
            `${rel}: imports ${specifier}; only src/node/ and src/cli/host/ may import node:*`,
          );
        continue;
      }
      if (!specifier.startsWith('.')) {
        const packageName = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0];
        const permitted = allowedPackages[layer] ?? [];
        if (
          layer !== 'adapters' &&
          layer !== 'node' &&
          layer !== 'cli' &&
          !permitted.includes(packageName as string)
        ) {
          violations.push(`${rel}: imports package ${specifier}`);
        }
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const targetLayer = layerOf(target);
      if (targetLayer === layer || targetLayer === 'base') continue;
      if (!(allowed[layer] ?? []).includes(targetLayer)) {
        violations.push(
          `${rel}: layer ${layer} may not import ${relative(root, target)} (layer ${targetLayer})`,
        );
        continue;
      }
      const targetPath = relative(root, target);
      // cli and adapters reach the library through the public entries and the two internal
      // barrels (what they need and users do not); the adapters' entries (skillhost/mcp, ...)
      // are public entries too: the CLI serves MCP through skillhost/mcp.
      const door =
        DOORS.includes(targetPath) || /^src\/adapters\/[^/]+\/index\.ts$/.test(targetPath);
      // Only the bin and its main start the plumbing; the plumbing takes the node modules one
      // by one, so that --help and --version load no library code.
      if (targetLayer === 'cli-host' && rel !== 'src/cli/bin.ts' && rel !== 'src/cli/main.ts')
        violations.push(`${rel}: only src/cli/bin.ts and main.ts may import ${targetPath}`);
      if ((layer === 'cli' || layer === 'adapters') && !door && targetLayer !== 'cli-host')
        violations.push(`${rel}: must use the public API or an internal barrel, not ${targetPath}`);
      if (layer === 'cli-host' && targetLayer === 'cli' && targetPath !== 'src/cli/io.ts')
        violations.push(`${rel}: the plumbing may take only the CLI's types (io.ts)`);
      if (layer === 'node' && targetLayer === 'root' && !NODE_DOORS.includes(targetPath))
        violations.push(`${rel}: must use src/core.ts or src/internal.ts, not ${targetPath}`);
    }
  }
  return violations;
}

describe('architecture', () => {
  it('follows the layer rules of DESIGN.md', () => {
    const sources = files(src, '.ts').map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(sources.length).toBeGreaterThan(20);
    expect(layerViolations(sources)).toEqual([]);
  });

  it("gives the context layer only the AI SDK's types (it never calls a model)", () => {
    const sources = files(join(src, 'context'), '.ts');
    expect(sources.length).toBeGreaterThan(5);
    const values: string[] = [];
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /^(import|export)\s+([^;]*?)from\s+['"](ai|@ai-sdk\/[^'"]+)['"]/gm,
      ))
        if (!/^type\s/.test(match[2] as string))
          values.push(`${relative(root, file)}: ${match[0]}`);
      if (/import\(\s*['"](?:ai|@ai-sdk\/)/.test(text))
        values.push(`${relative(root, file)}: import()`);
    }
    expect(values).toEqual([]);
  });

  it('never re-exports an internal barrel from a public entry', () => {
    const entries = ['src/index.ts', 'src/node/index.ts', 'src/testing/index.ts'];
    const adapters = readdirSync(join(src, 'adapters')).map(
      (name) => `src/adapters/${name}/index.ts`,
    );
    const reexports = /^export\s[^;]*?from\s+['"]([^'"]*internal\.js)['"]/gm;
    for (const entry of [...entries, ...adapters]) {
      const text = readFileSync(join(root, entry), 'utf8');
      expect(
        [...text.matchAll(reexports)].map((match) => match[1]),
        entry,
      ).toEqual([]);
    }
  });

  it('reports each kind of violation', () => {
    const violations = layerViolations([
      {
        file: join(src, 'format', 'bad.ts'),
        text: "import { x } from '../skill-files/walker.js';\nimport fs from 'node:fs';",
      },
      {
        file: join(src, 'policy', 'bad.ts'),
        text: "import { parseSkill } from '../format/parse.js';",
      },
      {
        file: join(src, 'skill-files', 'bad.ts'),
        text: "import { SkillRegistry } from '../registry/registry.js';",
      },
      {
        file: join(src, 'cli', 'bad.ts'),
        text: "import { parseSkill } from '../format/parse.js';",
      },
      {
        file: join(src, 'registry', 'bad.ts'),
        text: "export { cli } from '../cli/index.js';\nimport z from 'zod';",
      },
      {
        file: join(src, 'testing', 'bad.ts'),
        text: "import { sha256 } from '../node/hash.js';\nimport { readFileSync } from 'node:fs';",
      },
      {
        file: join(src, 'node', 'ok.ts'),
        text: "import fs from 'node:fs';\nimport { parseSkill } from '../core.js';",
      },
    ]);
    expect(violations).toEqual([
      expect.stringContaining(
        'src/format/bad.ts: layer format may not import src/skill-files/walker.ts',
      ),
      expect.stringContaining('src/format/bad.ts: imports node:fs'),
      expect.stringContaining('src/policy/bad.ts: layer policy may not import src/format/parse.ts'),
      expect.stringContaining(
        'src/skill-files/bad.ts: layer skill-files may not import src/registry/registry.ts',
      ),
      expect.stringContaining('src/cli/bad.ts: layer cli may not import src/format/parse.ts'),
      expect.stringContaining(
        'src/registry/bad.ts: layer registry may not import src/cli/index.ts',
      ),
      expect.stringContaining('src/registry/bad.ts: imports package zod'),
      expect.stringContaining('src/testing/bad.ts: layer testing may not import src/node/hash.ts'),
      expect.stringContaining('src/testing/bad.ts: imports node:fs'),
    ]);
  });

  it('has no module that does anything at import but define things (sideEffects: false)', () => {
    const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(packageJson.sideEffects).toBe(false);
    const acting: string[] = [];
    for (const file of files(src, '.ts')) {
      // The bin is a program, not a module anyone imports.
      if (relative(src, file) === 'cli/bin.ts') continue;
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      for (const statement of source.statements) {
        if (
          ts.isExpressionStatement(statement) ||
          ts.isIfStatement(statement) ||
          ts.isIterationStatement(statement, false)
        )
          acting.push(`${relative(root, file)}: ${statement.getText(source).slice(0, 80)}`);
      }
    }
    expect(acting).toEqual([]);
  });

  it('keeps the built root and testing entries free of node:* (runtime-neutral)', () => {
    const dist = join(root, 'dist');
    for (const entry of ['index.js', 'testing/index.js']) {
      expect(existsSync(join(dist, entry)), 'run npm run build first').toBe(true);
      const seen = new Set<string>();
      const reached: string[] = [];
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const specifier of importsOf(file)) {
          if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
          else reached.push(specifier);
        }
      };
      visit(join(dist, entry));
      expect(reached.filter(isNodeBuiltin), entry).toEqual([]);
      expect(seen.size, entry).toBeGreaterThan(entry === 'index.js' ? 10 : 5);
    }
  });

  it('gives skillhost/node the YAML library only through its lazy loader', () => {
    const dist = join(root, 'dist');
    const packagesReached = (entry: string): string[] => {
      const seen = new Set<string>();
      const packages: string[] = [];
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        const text = readFileSync(file, 'utf8').replace(/import\(\s*['"][^'"]+['"]\s*\)/g, '');
        for (const specifier of importsOf(file, text)) {
          if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
          else packages.push(specifier);
        }
      };
      visit(join(dist, entry));
      return packages;
    };
    expect(packagesReached('node/index.js')).not.toContain('yaml');
    expect(packagesReached('index.js')).toContain('yaml');
  });

  it('keeps the bin light: --help and --version load neither the core nor yaml', () => {
    const dist = join(root, 'dist');
    const seen = new Set<string>();
    const packages: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8').replace(/import\(\s*['"][^'"]+['"]\s*\)/g, '');
      for (const specifier of importsOf(file, text)) {
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
        else packages.push(specifier);
      }
    };
    visit(join(dist, 'cli', 'bin.js'));
    expect([...seen].map((file) => relative(dist, file))).not.toContain('index.js');
    expect(packages).not.toContain('yaml');
  });
});
