import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import type { AuditRecord } from '../../src/audit/trail.js';
import { estimateTokens } from '../../src/format/tokens.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { sha256 } from '../../src/node/hash.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import type { ApprovalQuestion, SkillRuntime } from '../../src/runtime/types.js';
import { createRecordingAuditSink } from '../../src/testing/index.js';
import { testSource } from './runtime.js';
import { skillText, tempDir, writeTree } from './temp.js';

/** A skills folder of skills made at test time, and a runtime over it. */
export interface SkillsWorld {
  readonly root: string;
  readonly runtime: SkillRuntime;
  readonly questions: ApprovalQuestion[];
  records(): AuditRecord[];
  /** The body text each skill was written with. */
  readonly bodies: Readonly<Record<string, string>>;
}

/** A body of about `tokens` tokens by the estimate, with a marker line unique to the skill. */
export function skillBody(name: string, tokens: number): string {
  const lines = [`# ${name} guide`, '', `BODY-MARKER-${name} first line of the instructions.`];
  const line = (index: number) =>
    `Step ${index} of ${name}: check the input and write the result to the report.`;
  let size = estimateTokens(lines.join('\n'));
  for (let index = 1; size < tokens; index += 1) {
    lines.push(line(index));
    size += estimateTokens(`${line(index)}\n`);
  }
  return `${lines.join('\n')}\n`;
}

export function skillsWorld(
  skills: Readonly<Record<string, number>>,
  options: { readonly trust?: 'trusted' | 'untrusted'; readonly answer?: 'yes' | 'always' } = {},
): SkillsWorld {
  const root = tempDir('skillhost-context-');
  const bodies: Record<string, string> = {};
  const tree: Record<string, string> = {};
  for (const [name, tokens] of Object.entries(skills)) {
    bodies[name] = skillBody(name, tokens);
    tree[`${name}/SKILL.md`] = skillText(
      `name: ${name}\ndescription: Does ${name} work. Use when the task needs ${name}.`,
      bodies[name],
    );
    tree[`${name}/references/notes.md`] = `Notes of ${name}.\n`;
  }
  writeTree(root, tree);
  const sink = createRecordingAuditSink();
  const questions: ApprovalQuestion[] = [];
  const runtime = createSkillRuntime({
    ...testSource(root, options.trust),
    audit: { sink, sessionId: 'context-session' },
    deps: {
      fs: createNodeFileSystem(),
      hash: sha256,
      now: () => new Date(),
      confirm: async (question) => {
        questions.push(question);
        return options.answer ?? 'yes';
      },
    },
  });
  return { root, runtime, questions, records: () => sink.records(), bodies };
}

export const skillDirectory = (world: SkillsWorld, name: string) => join(world.root, name);

/** A user message. */
export const user = (text: string): ModelMessage => ({ role: 'user', content: text });

/** An assistant message calling one tool. */
export function call(id: string, name: string, input: unknown): ModelMessage {
  return {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: name, input }],
  };
}

/** The tool message answering one call. */
export function result(id: string, name: string, text: string): ModelMessage {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: name,
        output: { type: 'text', value: text },
      },
    ],
  };
}

/** An assistant's answer. */
export const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });
