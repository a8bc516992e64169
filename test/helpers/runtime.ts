import { join } from 'node:path';
import { parseAuditLog, verifyAuditLog } from '../../src/audit/reader.js';
import { type AuditRecord, MemoryAuditSink } from '../../src/audit/trail.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { sha256 } from '../../src/node/hash.js';
import { createSandboxRunner, type SandboxOptions } from '../../src/node/sandbox.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import type { Trust } from '../../src/registry/sources.js';
import { Runtime, type RuntimeParts } from '../../src/runtime/runtime.js';
import type { ApprovalAnswer, ApprovalQuestion, SkillRuntime } from '../../src/runtime/types.js';
import { skillText, tempDir, writeTree } from './temp.js';

export interface World {
  readonly root: string;
  readonly home: string;
  readonly runtime: SkillRuntime;
  readonly sink: MemoryAuditSink;
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
  readonly options?: Partial<RuntimeParts>;
  readonly sandbox?: SandboxOptions;
  readonly limits?: Partial<import('../../src/deps.js').ScriptLimits>;
  readonly allowUnsandboxed?: boolean;
  readonly workspace?: { readonly path: string; readonly writable: boolean };
}

/**
 * A skills folder with the skill `tool` (its files as given) and a neighbour skill `other`
 * holding a secret, a home with an SSH key, and a runtime over it with the real sandbox.
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
  const sink = new MemoryAuditSink();
  const approvals = new Set<string>();
  const questions: ApprovalQuestion[] = [];
  const answers = [...(options.answers ?? [])];
  const runtime: SkillRuntime = new Runtime({
    fs: createNodeFileSystem(),
    sources: [
      {
        id: 'test',
        kind: options.trust === 'untrusted' ? 'external' : 'explicit',
        root,
        trust: options.trust ?? 'trusted',
        enabled: true,
      },
    ],
    hash: sha256,
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'test-session' },
    now: () => new Date(),
    scripts: {
      runner: createSandboxRunner({ homeDir: home, ...options.sandbox }),
      limits: { timeoutMs: 20_000, ...options.limits },
      ...(options.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    },
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
    ...options.options,
  });
  const records = () => [...parseAuditLog(sink.text).records];
  return {
    root,
    home,
    runtime,
    sink,
    approvals,
    questions,
    records,
    intact: () =>
      verifyAuditLog(parseAuditLog(sink.text), sha256).every(
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
  w.runtime.activate('tool', { triggeredBy: 'model' });
  return w.runtime.runScript('tool', script, args, { approveOnce });
}

export const skillDir = (w: World, name = 'tool') => join(w.root, name);

/** The adapters' fixture files: a report script and a guide that names it. */
export const REPORT_FILES: Readonly<Record<string, string>> = {
  'scripts/report.sh': '#!/bin/sh\necho "report for $*"\n',
  'references/guide.md': '# Guide\n\nRun scripts/report.sh with the period.\n',
};

/** Skill `tool` with the report files, its script pre-approved by its allowed-tools. */
export function reportWorld(): World {
  return world({ files: REPORT_FILES, allowedTools: 'Bash(sh scripts/report.sh:*)' });
}
