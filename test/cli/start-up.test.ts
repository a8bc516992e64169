import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKEN_PIPE_EXIT, fewSkills, stopOnBrokenPipe } from '../../src/cli/host/start.js';
import { bin } from '../helpers/built.js';
import { tempDir, writeSkill } from '../helpers/temp.js';

describe("what a command's start-up loads", () => {
  it('leaves V8 untuned for validate or to-prompt of skill directories only', () => {
    const root = tempDir();
    writeSkill(root, 'one');
    writeSkill(root, 'two');
    mkdirSync(join(root, 'lower'));
    writeFileSync(join(root, 'lower', 'skill.md'), '---\nname: lower\ndescription: x\n---\n');
    const one = join(root, 'one');
    expect(fewSkills(['validate', one])).toBe(true);
    expect(fewSkills(['validate', '--json', one, join(root, 'two')])).toBe(true);
    expect(fewSkills(['to-prompt', join(root, 'lower')])).toBe(true);
    // A folder of skills, a file, an option's value, no path, another command: a large job.
    expect(fewSkills(['validate', root])).toBe(false);
    expect(fewSkills(['validate', join(one, 'SKILL.md')])).toBe(false);
    expect(fewSkills(['validate', '--max-depth', '3', one])).toBe(false);
    expect(fewSkills(['validate'])).toBe(false);
    expect(fewSkills(['list', one])).toBe(false);
    expect(fewSkills(['validate', ...Array.from({ length: 17 }, () => one)])).toBe(false);
  });

  it('has bundled chunks of ASCII without documentation comments (a quicker read and scan)', () => {
    const chunks = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'chunks');
    const names = readdirSync(chunks);
    expect(names.length).toBeGreaterThan(10);
    const widened: string[] = [];
    for (const name of names) {
      const code = readFileSync(join(chunks, name), 'utf8');
      // The page templates of `skillhost ui` are raw text: they keep their characters.
      if (/[^\t\n\r\u0020-\u007e]/.test(code) && !/^ui-/.test(name)) widened.push(name);
      expect(code.includes('\n/**\n*'), name).toBe(false);
    }
    expect(widened).toEqual([]);
  });

  it('is CommonJS, whose chunks never require the bin (that would run the command line again)', () => {
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli');
    expect(JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
    const bin = readFileSync(join(cli, 'bin.js'), 'utf8');
    expect(bin).toContain('require("./chunks/main.js")');
    // Its one import(): what the chunks call for a package when its own loader compiles them.
    expect(bin.match(/\bimport\s*\(/g)).toHaveLength(1);
    expect(bin).toContain('(specifier) => import(specifier)');
    const chunks = join(cli, 'chunks');
    const requiring: string[] = [];
    const importing: string[] = [];
    for (const name of readdirSync(chunks)) {
      const code = readFileSync(join(chunks, name), 'utf8');
      if (/require\("\.\.\/bin\.js"\)/.test(code)) requiring.push(name);
      expect(code.startsWith('"use strict";\n'), name).toBe(true);
      if (!code.includes('__skillhostImport(')) continue;
      importing.push(name);
      // Packages are imported through the loader's function, or Node's import() as a fallback.
      expect(code.split('\n')[1]).toBe(
        'var __skillhostImport = typeof __skillhostImport === "function" ? __skillhostImport : (specifier) => import(specifier);',
      );
      expect(code.match(/\bimport\(/g)).toHaveLength(1);
    }
    expect(requiring).toEqual([]);
    expect(importing.length).toBeGreaterThan(3);
  });

  it('stops quietly with 141 when the reader of its output has gone', async () => {
    const root = tempDir();
    for (let index = 0; index < 40; index += 1) writeSkill(root, `skill-${index}`);
    const child = spawn(process.execPath, [bin, 'validate', '--json', root], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: join(root, '.home') },
    });
    // The reader leaves before the command writes a byte: its first write breaks the pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(BROKEN_PIPE_EXIT);
  });

  it('makes standard error only when something is written to it (a pipe costs a socket)', () => {
    const root = tempDir();
    writeSkill(root, 'one');
    const report = join(root, 'loaded.txt');
    const probe = join(root, 'probe.cjs');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, String(process.moduleLoadList.includes('NativeModule net'))));`,
    );
    // Standard output to a file (a pipe would be a socket too), standard error to a pipe.
    const output = join(root, 'output.txt');
    const run = (...argv: string[]) => {
      const fd = openSync(output, 'w');
      try {
        return spawnSync(process.execPath, ['-r', probe, bin, ...argv], {
          encoding: 'utf8',
          stdio: ['ignore', fd, 'pipe'],
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: join(root, '.home') },
        });
      } finally {
        closeSync(fd);
      }
    };
    const quiet = run('validate', join(root, 'one'));
    expect(quiet.status).toBe(0);
    expect(readFileSync(output, 'utf8')).toContain('valid');
    expect(quiet.stderr).toBe('');
    expect(readFileSync(report, 'utf8')).toBe('false');
    // A command that has something to say on standard error still says it.
    const failing = run('validate', '--no-such-option');
    expect(failing.status).toBe(2);
    expect(failing.stderr).toContain("unknown option '--no-such-option'");
    expect(readFileSync(report, 'utf8')).toBe('true');
  });

  it('throws any other error of a standard stream', () => {
    let listener: ((error: NodeJS.ErrnoException) => void) | undefined;
    const exits: number[] = [];
    stopOnBrokenPipe(
      {
        on: (_event, given) => {
          listener = given;
        },
      },
      (code) => {
        exits.push(code);
        throw new Error('exited');
      },
    );
    const failure = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    expect(() => listener?.(failure)).toThrow(failure);
    expect(exits).toEqual([]);
    expect(() => listener?.(Object.assign(new Error('gone'), { code: 'EPIPE' }))).toThrow('exited');
    expect(exits).toEqual([141]);
  });
});
