/**
 * What a client run did, as strace saw it: every process started (execve), every signal it got,
 * how it ended, every address a socket was pointed at (connect, sendto, sendmsg), and what was
 * written (to time the server's answer to `initialize`). The client, its MCP server and their
 * children are all traced (`-f`); only the traced system calls stop (`--seccomp-bpf`).
 */

/** strace's options before the command; the trace goes to `file`. */
export function straceArgs(file: string): string[] {
  return [
    '-f',
    '-q',
    '-ttt',
    '--seccomp-bpf',
    '-s',
    '200',
    '-e',
    'trace=execve,connect,sendto,sendmsg,sendmmsg,write,writev,kill,rt_sigaction',
    '-o',
    file,
    '--',
  ];
}

export interface TracedSignal {
  readonly name: string;
  readonly at: number;
  /** The sender's PID (in the namespace), when the kernel says. */
  readonly from?: number;
}

export interface TracedProcess {
  readonly pid: number;
  /** The program's arguments, from its (last) execve. */
  argv: readonly string[];
  /** When it called execve, in seconds since the epoch. */
  started: number;
  readonly signals: TracedSignal[];
  /** When it set SIGINT or SIGTERM back to the default action (which ends the process). */
  readonly defaults: { readonly signal: string; readonly at: number }[];
  /** `exited with N` or `killed by SIGNAL`; undefined while the trace shows it running. */
  end?: { readonly code?: number; readonly signal?: string; readonly at: number };
}

export interface TracedAddress {
  readonly pid: number;
  readonly call: string;
  readonly family: 'AF_INET' | 'AF_INET6';
  readonly address: string;
  readonly port: number;
  /** The host name asked for, when this is a DNS query that strace printed. */
  readonly query?: string;
}

export interface TracedWrite {
  readonly pid: number;
  readonly at: number;
  readonly fd: number;
  /** The start of what was written, as strace quotes it. */
  readonly text: string;
}

export interface Trace {
  readonly processes: ReadonlyMap<number, TracedProcess>;
  readonly addresses: readonly TracedAddress[];
  readonly writes: readonly TracedWrite[];
}

const LINE = /^(\d+)\s+(\d+\.\d+)\s+(.*)$/;

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f' };

/** A string as strace quotes it: C escapes, octal and hex bytes. */
function unquote(quoted: string): string {
  return quoted.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, code: string) => {
    if (code.startsWith('x')) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    if (/^[0-7]+$/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
    return ESCAPES[code] ?? code;
  });
}

/** The strings of an execve argv array as strace prints it: ["a", "b\"c"]. */
function argvOf(call: string): string[] {
  const open = call.indexOf('[');
  if (open === -1) return [];
  const strings: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"(\.\.\.)?/y;
  let at = open + 1;
  while (at < call.length && call[at] !== ']') {
    if (call[at] === ',' || call[at] === ' ') {
      at += 1;
      continue;
    }
    pattern.lastIndex = at;
    const match = pattern.exec(call);
    if (match === null) break;
    strings.push(unquote(match[1] ?? ''));
    at = pattern.lastIndex;
  }
  return strings;
}

function addressOf(pid: number, call: string, rest: string): TracedAddress | undefined {
  const family = /sa_family=(AF_INET6?)\b/.exec(rest)?.[1] as 'AF_INET' | 'AF_INET6' | undefined;
  if (family === undefined) return undefined;
  const address =
    family === 'AF_INET'
      ? /inet_addr\("([^"]*)"\)/.exec(rest)?.[1]
      : /inet_pton\(AF_INET6, "([^"]*)"/.exec(rest)?.[1];
  const port = Number(/sin6?_port=htons\((\d+)\)/.exec(rest)?.[1] ?? Number.NaN);
  // A DNS question as strace quotes it: length-prefixed labels, e.g. \3api\6github\3com\0.
  const labels = port === 53 ? [...rest.matchAll(/\\([0-7]{1,2})([a-z][a-z0-9-]*)/gi)] : [];
  const query = labels.map((label) => label[2]).join('.');
  return { pid, call, family, address: address ?? '?', port, ...(query === '' ? {} : { query }) };
}

/** Reads strace's output (`-f -ttt`). */
export function parseTrace(text: string): Trace {
  const processes = new Map<number, TracedProcess>();
  const addresses: TracedAddress[] = [];
  const writes: TracedWrite[] = [];
  const processOf = (pid: number, at: number): TracedProcess => {
    let found = processes.get(pid);
    if (found === undefined) {
      found = { pid, argv: [], started: at, signals: [], defaults: [] };
      processes.set(pid, found);
    }
    return found;
  };
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (match === null) continue;
    const pid = Number(match[1]);
    const at = Number(match[2]);
    const rest = match[3] ?? '';
    if (rest.startsWith('+++ ')) {
      const exited = /^\+\+\+ exited with (\d+) \+\+\+/.exec(rest);
      const killed = /^\+\+\+ killed by (SIG[A-Z0-9]+)/.exec(rest);
      processOf(pid, at).end = exited
        ? { code: Number(exited[1]), at }
        : { signal: killed?.[1] ?? rest, at };
      continue;
    }
    if (rest.startsWith('--- ')) {
      const signal = /^--- (SIG[A-Z0-9]+)/.exec(rest)?.[1];
      const from = /si_pid=(\d+)/.exec(rest)?.[1];
      if (signal !== undefined)
        processOf(pid, at).signals.push({
          name: signal,
          at,
          ...(from === undefined ? {} : { from: Number(from) }),
        });
      continue;
    }
    const call = /^([a-z0-9_]+)\(/.exec(rest)?.[1];
    if (call === 'execve') {
      // The call that failed (a PATH search) leaves the process as it was.
      if (/\) = -1 /.test(rest)) continue;
      const traced = processOf(pid, at);
      traced.argv = argvOf(rest);
      traced.started = at;
    } else if (
      call === 'connect' ||
      call === 'sendto' ||
      call === 'sendmsg' ||
      call === 'sendmmsg'
    ) {
      const address = addressOf(pid, call, rest);
      if (address !== undefined) addresses.push(address);
    } else if (call === 'rt_sigaction') {
      const reset = /^rt_sigaction\((SIGINT|SIGTERM), \{sa_handler=SIG_DFL\b/.exec(rest);
      if (reset?.[1] !== undefined) processOf(pid, at).defaults.push({ signal: reset[1], at });
    } else if (call === 'write' || call === 'writev') {
      const fd = Number(/^[a-z]+\((\d+),/.exec(rest)?.[1] ?? -1);
      writes.push({ pid, at, fd, text: rest });
    }
  }
  return { processes, addresses, writes };
}

/** Whether an address is this host's loopback (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
}

/** Every address outside loopback that anything in the run tried to reach. */
export function outsideLoopback(trace: Trace): TracedAddress[] {
  return trace.addresses.filter((address) => !isLoopback(address.address));
}

/** The traced process whose argv passes `test` (the first started, when several do). */
export function findProcess(
  trace: Trace,
  test: (argv: readonly string[]) => boolean,
): TracedProcess | undefined {
  return [...trace.processes.values()]
    .filter((traced) => test(traced.argv))
    .sort((a, b) => a.started - b.started)[0];
}

/**
 * The times `traced` put SIGINT or SIGTERM back to the default action after its first SIGINT or
 * SIGTERM, while it still ran: from then until it exits, one more such signal kills it.
 */
export function defaultsAfterFirstSignal(
  traced: TracedProcess,
): { readonly signal: string; readonly at: number }[] {
  const first = traced.signals.find(
    (signal) => signal.name === 'SIGINT' || signal.name === 'SIGTERM',
  );
  if (first === undefined) return [];
  return traced.defaults.filter((reset) => reset.at >= first.at);
}

/**
 * When `pid` wrote its answer to the client's first handshake on standard output (seconds since
 * the epoch): the `initialize` result (`protocolVersion`) of the 2025 protocol, or the
 * `server/discover` result (`supportedVersions`) of the 2026 one.
 */
export function initializeAnsweredAt(trace: Trace, pid: number): number | undefined {
  return trace.writes.find(
    (write) =>
      write.pid === pid &&
      write.fd === 1 &&
      /\\"result\\":\{\\"(?:protocolVersion|supportedVersions)\\"/.test(write.text),
  )?.at;
}
