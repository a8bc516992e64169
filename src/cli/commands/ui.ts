import { SkillhostError } from '../../node/index.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../printable.js';
import { RUNTIME_OPTIONS } from '../runtime-options.js';
import { uiRoutes } from '../ui/routes.js';
import { serveUi } from '../ui/server.js';

/**
 * `skillhost ui [--port P] [--open]`: the read-only inspector on 127.0.0.1, until Ctrl-C. The
 * token in the address it prints is made of two random UUIDs (244 random bits).
 */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    agents: { type: 'string', multiple: true },
    port: { type: 'string' },
    open: { type: 'boolean' },
  });
  if (args.positionals.length > 0) throw new UsageError('ui takes no arguments');
  const port = args.options.port === undefined ? 0 : integerOption(args.options.port, 'port', 0);
  if (port > 65_535) throw new UsageError('--port needs a port from 0 to 65535');
  const token = `${deps.newSessionId()}${deps.newSessionId()}`.replace(/-/g, '');
  const timers = new Set<() => void>();
  const routes = uiRoutes(
    { args, deps, token },
    {
      every: (ms, tick) => {
        const timer = setInterval(tick, ms);
        const stop = () => {
          clearInterval(timer);
          timers.delete(stop);
        };
        timers.add(stop);
        return stop;
      },
    },
  );
  const server = await serveUi({
    routes,
    token,
    port,
    onError: (error) =>
      io.stderr.write(
        `skillhost: ui: ${printable(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
      ),
  }).catch((error: unknown) => {
    throw new SkillhostError(
      'UI_PORT_UNAVAILABLE',
      `Cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  io.stdout.write(
    `skillhost ui: open ${server.url}\n(read-only, on 127.0.0.1 only; every request needs the token in this address; Ctrl-C stops it)\n`,
  );
  if (args.options.open === true) {
    const opener = deps.openUrl;
    // A browser that cannot be opened is no reason to stop: the address is printed above.
    const warn = (why: string) =>
      io.stderr.write(`skillhost: warning: ui: ${printable(why)}; open the address above\n`);
    if (opener === undefined) warn('this host cannot open a browser');
    else
      await Promise.resolve()
        .then(() => opener(server.url))
        .catch((error: unknown) =>
          warn(
            `could not open a browser (${error instanceof Error ? error.message : String(error)})`,
          ),
        );
  }
  await new Promise<void>((resolve) => {
    const stop = deps.onInterrupt?.(() => {
      stop?.();
      resolve();
    });
  });
  for (const stop of [...timers]) stop();
  await server.close();
  return 0;
}
