import type {
  MemoryLimitMethod,
  SandboxExplanation,
  ScriptRunRequest,
  SkillEnvironmentStatus,
} from '../deps.js';
import type { ProcessPlan } from './sandbox-process.js';

/** Reads a process plan back as what the script would see. */
export function describePlan(
  plan: ProcessPlan,
  request: ScriptRunRequest,
  facts: {
    readonly memory: MemoryLimitMethod;
    readonly dependencies: SkillEnvironmentStatus | undefined;
  },
): SandboxExplanation {
  const argv = plan.argv;
  const mounts: { kind: string; path: string; source?: string }[] = [];
  const environment: Record<string, string> = {};
  let workingDirectory = plan.cwd ?? '';
  let limits: string[] = [];
  let interpreter = plan.command;
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] as string;
    const next = argv[index + 1] as string;
    const after = argv[index + 2] as string;
    if (word === '--') {
      const rest = argv.slice(index + 1);
      const split = rest.indexOf('--');
      limits =
        split === -1
          ? plan.sandbox === 'none'
            ? argv.slice(0, index).filter((item) => item.startsWith('--'))
            : []
          : rest.slice(1, split).filter((item) => item.startsWith('--'));
      interpreter = (split === -1 ? rest[0] : rest[split + 1]) ?? interpreter;
      break;
    }
    if (word === '--ro-bind' || word === '--bind') {
      const hidden = next.endsWith('/hidden-file') || next.endsWith('/hidden-directory');
      mounts.push(
        hidden
          ? { kind: 'hidden', path: after }
          : { kind: word === '--bind' ? 'rw' : 'ro', path: after, source: next },
      );
      index += 2;
    } else if (word === '--tmpfs' || word === '--proc' || word === '--dev') {
      mounts.push({ kind: word.slice(2), path: next });
      index += 1;
    } else if (word === '--symlink') {
      mounts.push({ kind: 'symlink', path: after, source: next });
      index += 2;
    } else if (word === '--setenv') {
      environment[next] = after;
      index += 2;
    } else if (word === '--chdir') {
      workingDirectory = next;
      index += 1;
    } else if (['--size', '--seccomp', '--block-fd', '--remount-ro', '--cap-drop'].includes(word)) {
      index += 1;
    }
  }
  if (plan.sandbox === 'none') Object.assign(environment, plan.environment);
  return {
    sandbox: plan.sandbox,
    interpreter,
    workingDirectory,
    mounts,
    environment,
    limits,
    network: request.network === true,
    memory: { ...facts.memory, bytes: request.limits.maxMemoryBytes },
    ...(facts.dependencies === undefined ? {} : { dependencies: facts.dependencies }),
    command: [plan.command, ...argv],
  };
}
