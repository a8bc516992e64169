import { join } from 'node:path';
import { verifyAuditLog } from '../../src/audit/reader.js';
import type { AuditRecord } from '../../src/audit/trail.js';
import type { ScriptLimits, ScriptRunner, ScriptWorkspace } from '../../src/deps.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { sha256 } from '../../src/node/hash.js';
import { createSandboxRunner, type SandboxOptions } from '../../src/node/sandbox.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import type { Trust } from '../../src/registry/sources.js';
import {
  type CreateSkillRuntimeOptions,
  createSkillRuntime,
  type SkillRuntimeDeps,
} from '../../src/runtime/create.js';
import type { ApprovalAnswer, ApprovalQuestion, SkillRuntime } from '../../src/runtime/types.js';
import {
  createRecordingAuditSink,
  type RecordingAuditSink,
  type ScriptedRunner,
} from '../../src/testing/index.js';
import { shellRunner } from './shell.js';
import { skillText, tempDir, writeTree } from './temp.js';

export interface World {
  readonly root: string;
  readonly home: string;
  readonly runtime: SkillRuntime;
  readonly sink: RecordingAuditSink;
  /** The runner scripts go to: the scripted shell runner unless the world was given another. */
  readonly runner: ScriptRunner;
  /** The scripted runner, when the world uses one (its `requests` show what would have run). */
  readonly scripted: ScriptedRunner | undefined;
  readonly approvals: Set<string>;
  readonly questions: ApprovalQuestion[];
  /** The audit records so far. */
  records(): AuditRecord[];
  /** Whether every session in the audit log verifies. */
  intact(): boolean;
}

export interface WorldOptions {
  /** Files of the skill `tool`, relative to its directory (SKILL.md is written for you). */
  readonly files?: Record<string, string | Uint8Array>;
  readonly allowedTools?: string;
  readonly trust?: Trust;
  readonly answers?: ApprovalAnswer[];
  /** Runtime options (policy, audit, scope, catalog...) over the world's defaults. */
  readonly options?: Partial<Omit<CreateSkillRuntimeOptions, 'deps' | 'scripts'>>;
  /** Deps over the world's defaults, e.g. a `confirm` of the test's own. */
  readonly deps?: Partial<SkillRuntimeDeps>;
  /**
   * The script runner: a runner of the test's own, or `bubblewrap` for the real sandbox runner
   * (the sandbox suite only). Default: the scripted runner that plays the fixtures' shell scripts.
   */
  readonly runner?: ScriptRunner | 'bubblewrap';
  /** Options of the real sandbox runner (with `runner: 'bubblewrap'`). */
  readonly sandbox?: SandboxOptions;
  readonly limits?: Partial<ScriptLimits>;
  readonly allowUnsandboxed?: boolean;
  readonly workspace?: ScriptWorkspace;
  readonly allowNetwork?: boolean;
  /** The folder of environments `skillhost setup` makes (scripts.environments). */
  readonly environments?: string;
}

/** One skill source `test` over `root` (trusted unless said), and a policy with every tool. */
export function testSource(root: string, trust: Trust = 'trusted') {
  return {
    sources: [
      {
        id: 'test',
        kind: trust === 'untrusted' ? ('external' as const) : ('explicit' as const),
        root,
        trust,
        enabled: true,
      },
    ],
    policy: { tools: [...CANONICAL_TOOLS] },
  };
}

/**
 * A skills folder with the skill `tool` (its files as given) and a neighbour skill `other`
 * holding a secret, a home with an SSH key, and a runtime over it (made by createSkillRuntime)
 * whose scripts go to the scripted runner, or to the real sandbox with `runner: 'bubblewrap'`.
 */
export function world(options: WorldOptions = {}): World {
  const root = tempDir('skillhost-skills-');
  const home = tempDir('skillhost-home-');
  writeTree(home, { '.ssh/id_rsa': 'HOME-SSH-SECRET\n' });
  const allowed =
    options.allowedTools === undefined ? '' : `\nallowed-tools: ${options.allowedTools}`;
  writeTree(root, {
    'tool/SKILL.md': skillText(`name: tool\ndescription: Runs tools. Use for tests.${allowed}`),
    ...Object.fromEntries(
      Object.entries(options.files ?? {}).map(([path, content]) => [`tool/${path}`, content]),
    ),
    'other/SKILL.md': skillText('name: other\ndescription: Another skill. Use never.'),
    'other/references/secret.md': 'OTHER-SKILL-SECRET\n',
  });
  const sink = createRecordingAuditSink();
  const approvals = new Set<string>();
  const questions: ApprovalQuestion[] = [];
  const answers = [...(options.answers ?? [])];
  const runner: ScriptRunner =
    options.runner === 'bubblewrap'
      ? createSandboxRunner({ homeDir: home, ...options.sandbox })
      : (options.runner ?? shellRunner());
  const runtime = createSkillRuntime({
    ...testSource(root, options.trust),
    audit: { sink, sessionId: 'test-session' },
    scripts: {
      limits: { timeoutMs: 20_000, ...options.limits },
      ...(options.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
      ...(options.allowNetwork === true ? { allowNetwork: true } : {}),
      ...(options.environments === undefined ? {} : { environments: options.environments }),
    },
    ...options.options,
    deps: {
      fs: createNodeFileSystem(),
      hash: sha256,
      now: () => new Date(),
      runner,
      approvals: {
        has: (key) => approvals.has(key),
        add: (key) => {
          approvals.add(key);
        },
      },
      ...(options.answers === undefined
        ? {}
        : {
            confirm: async (question: ApprovalQuestion) => {
              questions.push(question);
              return answers.shift() ?? 'no';
            },
          }),
      ...options.deps,
    },
  });
  return {
    root,
    home,
    runtime,
    sink,
    runner,
    scripted: 'requests' in runner ? (runner as ScriptedRunner) : undefined,
    approvals,
    questions,
    records: () => sink.records(),
    intact: () =>
      verifyAuditLog(sink.parsed(), sha256).every(
        (verdict) =>
          verdict.problems.filter((problem) => !problem.includes('session-end')).length === 0,
      ),
  };
}

/** Activates `tool` and runs one of its scripts, approved once. */
export async function runTool(
  w: World,
  script: string,
  args: readonly string[] = [],
  approveOnce = true,
) {
  w.runtime.activate('tool', { triggeredBy: 'user' });
  return w.runtime.runScript('tool', script, args, { approveOnce });
}

export const skillDir = (w: World, name = 'tool') => join(w.root, name);

/** The adapters' fixture files: a report script and a guide that names it. */
export const REPORT_FILES: Readonly<Record<string, string>> = {
  'scripts/report.sh': '#!/bin/sh\necho "report for $*"\n',
  'references/guide.md': '# Guide\n\nRun scripts/report.sh with the period.\n',
};

/** Skill `tool` with the report files, its script pre-approved by its allowed-tools. */
export function reportWorld(options: WorldOptions = {}): World {
  return world({ files: REPORT_FILES, allowedTools: 'Bash(sh scripts/report.sh:*)', ...options });
}
