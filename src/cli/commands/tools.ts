import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

const TOOLS_OPTIONS = {
  ...RUNTIME_OPTIONS,
  ...JSON_OPTION,
  workspace: { type: 'string' },
  'workspace-writable': { type: 'boolean' },
} as const;

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, TOOLS_OPTIONS);
  if (args.positionals.length > 0) throw new UsageError('tools takes no arguments');
  if (args.options['workspace-writable'] === true && args.options.workspace === undefined)
    throw new UsageError('--workspace-writable needs --workspace DIR');
  const folder =
    args.options.workspace === undefined
      ? undefined
      : deps.resolvePath(deps.cwd, String(args.options.workspace));
  const { runtime, close } =
    folder === undefined
      ? openRuntime(args, deps, io)
      : openRuntime(
          args,
          deps,
          io,
          { workspace: { path: folder, writable: args.options['workspace-writable'] === true } },
          { workspaceTools: true },
        );
  try {
    const tools = runtime.tools();
    if (args.options.json === true) {
      io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
      return 0;
    }
    if (tools.length === 0) {
      io.stdout.write(
        `No tools: there is no usable skill to offer${folder === undefined ? ' (--workspace DIR adds the host tools)' : ''}.\n`,
      );
      return 0;
    }
    for (const tool of tools) {
      const schema = tool.inputSchema;
      const fields = Object.entries(schema.properties).map(([field, spec]) => {
        const type = spec.type === 'array' ? 'string[]' : String(spec.type);
        const choices = Array.isArray(spec.enum) ? ` one of ${spec.enum.length} names` : '';
        return `${field}${schema.required.includes(field) ? '' : '?'}: ${type}${choices}`;
      });
      io.stdout.write(`${tool.name}(${fields.join(', ')})\n  ${printable(tool.description)}\n`);
    }
    return 0;
  } finally {
    await close();
  }
}
