import { describe, expect, it } from 'vitest';
import { isSecretName, newRunId, pathHints, type ViewFacts } from '../../src/node/sandbox-view.js';

describe('secret files of a workspace', () => {
  it('are the usual names, and only those', () => {
    for (const [name, parent] of [
      ['.env', 'app'],
      ['.env.local', 'app'],
      ['server.pem', 'certs'],
      ['tls.key', 'certs'],
      ['id_rsa', 'keys'],
      ['id_ed25519', '.ssh'],
      ['.npmrc', 'app'],
      ['.pypirc', 'app'],
      ['.netrc', 'app'],
      ['.git-credentials', 'app'],
      ['config', '.git'],
    ])
      expect(isSecretName(name as string, parent as string)).toBe(true);
    for (const [name, parent] of [
      ['env.py', 'app'],
      ['id_utils.py', 'app'],
      ['config', 'app'],
      ['keys.md', 'docs'],
      ['README.md', 'app'],
    ])
      expect(isSecretName(name as string, parent as string)).toBe(false);
  });
});

describe('hints for a failed run', () => {
  const facts: ViewFacts = {
    workspace: '/p',
    writable: false,
    hidden: ['.env', 'config/.env.prod'],
    visible: ['/skills/tool', '/usr'],
    keepsOutputs: true,
  };
  it('name the flag that shows a hidden secret file, relative or absolute', () => {
    expect(pathHints('cat: .env: Permission denied', facts, () => true)).toEqual([
      '.env is hidden by the sandbox because files like it commonly hold secrets; to let scripts read it, run with --expose .env',
    ]);
    expect(
      pathHints(
        "PermissionError: [Errno 13] Permission denied: '/p/config/.env.prod'",
        facts,
        () => true,
      )[0],
    ).toContain('--expose config/.env.prod');
  });
  it('explain a host path that exists but is not shown, and only such a path', () => {
    const line = "FileNotFoundError: [Errno 2] No such file or directory: '/home/u/data.csv'";
    expect(pathHints(line, facts, () => true)[0]).toContain(
      '/home/u/data.csv exists on this machine, but the sandbox does not show it',
    );
    expect(pathHints(line, facts, () => false)).toEqual([]);
    expect(pathHints('cat: /p/missing.txt: No such file or directory', facts, () => true)).toEqual(
      [],
    );
  });
  it('say a read-only workspace can be made writable', () => {
    expect(
      pathHints('sh: 1: cannot create data/x: Read-only file system', facts, () => true)[0],
    ).toContain('--workspace-writable');
  });
});

describe('a missing module', () => {
  it('gets a hint that says where the sandbox looks for packages', () => {
    const facts: ViewFacts = {
      workspace: '/p',
      writable: false,
      hidden: [],
      visible: [],
      keepsOutputs: false,
    };
    for (const line of [
      "ModuleNotFoundError: No module named 'pandas'",
      "Error: Cannot find module 'lodash'",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /skill/scripts/x.mjs",
    ])
      expect(pathHints(line, facts, () => false)[0]).toMatch(
        /^the module \S+ is not installed where the sandbox looks: .*\.venv/,
      );
  });
});

describe('run folder names', () => {
  it('sort by time and differ by a random tail', () => {
    const id = newRunId(new Date('2026-12-01T14:05:09.123Z'), () => 0.5);
    expect(id).toBe('20261201-140509-800000');
  });
});
