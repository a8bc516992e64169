import { type CapturedOutput, DEFAULT_SCRIPT_LIMITS, SkillhostError } from '../../node/index.js';
import { parseArgs, timeoutOption, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { reportSkillError } from '../exit-codes.js';
import { writeWithBackpressure } from '../io.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { defaultWorkspace, openRuntime, RUNTIME_OPTIONS, runsFolder } from '../runtime-options.js';
import { formatSize, parseSize } from '../size.js';

const TIMED_OUT = 124;

/** Output of an untrusted program is shown with control characters escaped (newlines and tabs kept). */
function visible(text: string): string {
  return text
    .split('\n')
    .map((line) => printable(line, true))
    .join('\n');
}

function render(output: CapturedOutput): string {
  if (output.omittedBytes <= 0) return visible(output.head + output.tail);
  return `${visible(output.head)}\n[… ${output.omittedBytes} bytes not shown …]\n${visible(output.tail)}`;
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    yes: { type: 'boolean' },
    timeout: { type: 'string' },
    'allow-unsandboxed': { type: 'boolean' },
    workspace: { type: 'string' },
    'workspace-writable': { type: 'boolean' },
    'max-write': { type: 'string' },
    memory: { type: 'string' },
    protect: { type: 'string', multiple: true },
    'no-workspace': { type: 'boolean' },
    expose: { type: 'string', multiple: true },
    out: { type: 'string' },
    'allow-net': { type: 'boolean' },
  });
  if (args.positionals.length !== 2)
    throw new UsageError('run needs a NAME and a SCRIPT (then -- and its arguments)');
  const [name, script] = args.positionals as [string, string];
  const timeoutMs = timeoutOption(args.options.timeout);
  let maxWriteBytes: number | undefined;
  if (args.options['max-write'] !== undefined) {
    maxWriteBytes = parseSize(String(args.options['max-write']));
    if (maxWriteBytes === undefined)
      throw new UsageError('--max-write needs a size: bytes, or a number with K, M or G (512M)');
  }
  let maxMemoryBytes: number | undefined;
  if (args.options.memory !== undefined) {
    maxMemoryBytes = parseSize(String(args.options.memory));
    if (maxMemoryBytes === undefined)
      throw new UsageError('--memory needs a size: bytes, or a number with K, M or G (4G)');
  }
  const protect = (args.options.protect as readonly string[] | undefined) ?? [];
  if (protect.length > 0 && args.options['workspace-writable'] !== true)
    throw new UsageError('--protect needs --workspace DIR --workspace-writable');
  const expose = (args.options.expose as readonly string[] | undefined) ?? [];
  const noWorkspace = args.options['no-workspace'] === true;
  if (
    noWorkspace &&
    (args.options.workspace !== undefined ||
      args.options['workspace-writable'] === true ||
      expose.length > 0 ||
      args.options.out !== undefined)
  )
    throw new UsageError(
      '--no-workspace goes with none of --workspace, --workspace-writable, --expose, --out',
    );
  if (args.options.out !== undefined && args.options['workspace-writable'] === true)
    throw new UsageError('--out is for a read-only workspace: a writable one keeps files in place');
  const project = defaultWorkspace(
    deps.resolvePath(deps.cwd, String(args.options.project ?? '.')),
    deps,
  );
  const folder =
    args.options.workspace === undefined
      ? project?.path
      : deps.resolvePath(deps.cwd, String(args.options.workspace));
  if (folder === undefined && (args.options['workspace-writable'] === true || expose.length > 0))
    throw new UsageError(
      'the project folder holds your home folder, so it is no workspace by default: name one with --workspace DIR',
    );
  const writable = args.options['workspace-writable'] === true;
  const outputs =
    args.options.out !== undefined
      ? deps.resolvePath(deps.cwd, String(args.options.out))
      : (project?.outputs ?? (folder === undefined ? undefined : runsFolder(folder, deps)));
  const workspace =
    noWorkspace || folder === undefined
      ? null
      : {
          path: folder,
          writable,
          ...(protect.length > 0 ? { protect } : {}),
          ...(expose.length > 0 ? { expose } : {}),
          ...(writable || outputs === undefined ? {} : { outputs }),
        };
  let opened: ReturnType<typeof openRuntime> | undefined;
  try {
    opened = openRuntime(args, deps, io, {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(maxWriteBytes === undefined ? {} : { maxWriteBytes }),
      ...(maxMemoryBytes === undefined ? {} : { maxMemoryBytes }),
      allowUnsandboxed: args.options['allow-unsandboxed'] === true,
      allowNetwork: args.options['allow-net'] === true,
      workspace,
    });
    const { runtime } = opened;
    runtime.activate(name, { triggeredBy: 'user' });
    const outcome = await runtime.runScript(name, script, args.rest, {
      approveOnce: args.options.yes === true,
    });
    const { result } = outcome;
    if (args.options.json === true) {
      await writeWithBackpressure(io.stdout, `${JSON.stringify(outcome, null, 2)}\n`);
    } else {
      if (result.stdout.totalBytes > 0)
        await writeWithBackpressure(io.stdout, render(result.stdout));
      if (result.stderr.totalBytes > 0) io.stderr.write(render(result.stderr));
      const ending = result.timedOut
        ? `timed out after ${(result.durationMs / 1000).toFixed(2)} s`
        : result.signal !== null
          ? `killed by ${result.signal}`
          : `exit ${result.exitCode}`;
      const truncated = result.stdout.omittedBytes + result.stderr.omittedBytes;
      const notes = [
        ending,
        `${(result.durationMs / 1000).toFixed(2)} s`,
        result.resourceLimit === 'write'
          ? `stopped: write limit (${formatSize(maxWriteBytes ?? DEFAULT_SCRIPT_LIMITS.maxWriteBytes)} in all)`
          : result.resourceLimit === 'memory'
            ? `failed: memory limit (${formatSize(maxMemoryBytes ?? DEFAULT_SCRIPT_LIMITS.maxMemoryBytes)}; --memory to raise it)`
            : result.outputLimited
              ? 'stopped: output limit'
              : truncated > 0
                ? `${truncated} output bytes not shown`
                : 'output complete',
        result.sandbox === 'bubblewrap'
          ? `sandbox bubblewrap${args.options['allow-net'] === true ? ' with the network' : ''}`
          : 'NO SANDBOX (allowed explicitly)',
        `approved by ${outcome.approvedBy}`,
        ...(result.dependencies?.status === 'used' ? ['packages from skillhost setup'] : []),
      ];
      if (result.notStaged !== undefined && result.notStaged.count > 0) {
        const left = result.notStaged;
        notes.push(`${left.count} skill file${left.count === 1 ? '' : 's'} not staged`);
        const named = left.files.slice(0, 10).map((file) => `${file.path} (${file.reason})`);
        const more = left.count - named.length;
        io.stderr.write(
          `${result.stdout.head.endsWith('\n') || result.stdout.totalBytes === 0 ? '' : '\n'}[skillhost run] not staged: ${printable(named.join(', '))}${more > 0 ? `, and ${more} more` : ''}\n`,
        );
      }
      let separated = result.notStaged !== undefined;
      const line = (text: string) => {
        const before =
          separated || result.stdout.head.endsWith('\n') || result.stdout.totalBytes === 0
            ? ''
            : '\n';
        separated = true;
        io.stderr.write(`${before}[skillhost run] ${printable(text)}\n`);
      };
      const written = result.written;
      if (written !== undefined && written.count > 0) {
        const where = written.folder === undefined ? 'in place' : `kept in ${written.folder}`;
        line(`wrote ${written.count} file${written.count === 1 ? '' : 's'}, ${where}:`);
        for (const file of written.files)
          io.stderr.write(
            `  ${printable(file.path)} (${formatSize(file.bytes)}) -> ${printable(file.location)}\n`,
          );
        if (written.count > written.files.length)
          io.stderr.write(`  … and ${written.count - written.files.length} more\n`);
      }
      if (written?.removed !== undefined)
        line(
          `removed from the run folder (links and special files): ${written.removed.join(', ')}`,
        );
      for (const hint of result.hints ?? []) line(`hint: ${hint}`);
      line(notes.join(' · '));
    }
    if (result.timedOut) return TIMED_OUT;
    if (result.exitCode !== null) return result.exitCode;
    return 128 + (result.signal === 'SIGKILL' ? 9 : result.signal === 'SIGTERM' ? 15 : 1);
  } catch (error) {
    if (SkillhostError.isInstance(error)) return reportSkillError(io.stderr, error);
    throw error;
  } finally {
    await opened?.close();
  }
}
