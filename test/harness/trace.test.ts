import { describe, expect, it } from 'vitest';
import {
  defaultsAfterFirstSignal,
  findProcess,
  initializeAnsweredAt,
  isLoopback,
  outsideLoopback,
  parseTrace,
  type TracedProcess,
} from '../clients/harness/trace.js';

// Lines as strace -f -ttt prints them (taken from client runs, shortened).
const TRACE = [
  '17    1796115176.300000 execve("/opt/claude", ["/opt/claude", "-p", "Tidy \\"my\\" notes\\n"], 0x4c7 /* 9 vars */) = 0',
  '23    1796115176.340000 execve("/root/.cargo/bin/node", ["node", "x"], 0x1 /* 2 vars */) = -1 ENOENT (No such file or directory)',
  '23    1796115176.345644 execve("/usr/bin/node", ["/usr/bin/node", "/repo/dist/cli/bin.js", "mcp", "--skills", "/tmp/s"], 0x4c79a7ac320 /* 23 vars */) = 0',
  '17    1796115176.346364 sendto(9, "{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"server/discover\\"}", 459, MSG_DONTWAIT|MSG_NOSIGNAL, NULL, 0) = 459',
  '23    1796115176.349227 write(5, "*", 1) = 1',
  '23    1796115176.508066 write(1, "{\\"result\\":{\\"supportedVersions\\":[\\"2026-07-28\\"],\\"capabilities\\":{}}}"..., 1012) = 1012',
  '22    1796115176.600000 connect(19, {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)',
  '34    1796115176.700000 sendto(12, "l\\23\\1\\0\\0\\1\\0\\0\\0\\0\\0\\0\\2ab\\7chatgpt\\3com\\0\\0\\1\\0\\1", 32, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = -1 ENETUNREACH (Network is unreachable)',
  '35    1796115176.710000 connect(3, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28 <unfinished ...>',
  '36    1796115176.720000 connect(3, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
  '37    1796115176.730000 connect(4, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 110) = 0',
  '23    1796115176.400000 rt_sigaction(SIGINT, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=SA_RESTORER, sa_restorer=0x7f}, NULL, 8) = 0',
  '23    1796115176.410000 rt_sigaction(SIGINT, NULL, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0',
  '23    1796115176.420000 rt_sigaction(SIGINT, {sa_handler=0x18b68a0, sa_mask=~[RTMIN RT_1], sa_flags=SA_RESTORER|SA_RESTART, sa_restorer=0x7f}, NULL, 8) = 0',
  '23    1796115177.186936 --- SIGINT {si_signo=SIGINT, si_code=SI_USER, si_pid=1, si_uid=0} ---',
  '23    1796115177.187942 rt_sigaction(SIGINT, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=SA_RESTORER, sa_restorer=0x7f},  <unfinished ...>',
  '23    1796115177.188832 rt_sigaction(SIGTERM, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=SA_RESTORER, sa_restorer=0x7f}, NULL, 8) = 0',
  '23    1796115177.200456 --- SIGINT {si_signo=SIGINT, si_code=SI_USER, si_pid=17, si_uid=0} ---',
  '23    1796115177.209964 +++ killed by SIGINT +++',
  '17    1796115177.300000 +++ exited with 0 +++',
  '',
].join('\n');

describe('reading a client run from strace', () => {
  const trace = parseTrace(TRACE);

  it('finds each process by its arguments, with its signals and its end', () => {
    const server = findProcess(trace, (argv) => argv[2] === 'mcp');
    expect(server).toMatchObject({
      pid: 23,
      argv: ['/usr/bin/node', '/repo/dist/cli/bin.js', 'mcp', '--skills', '/tmp/s'],
      started: 1796115176.345644,
      end: { signal: 'SIGINT' },
    });
    expect(server?.signals.map((signal) => [signal.name, signal.from])).toEqual([
      ['SIGINT', 1],
      ['SIGINT', 17],
    ]);
    const client = findProcess(trace, (argv) => argv[0] === '/opt/claude');
    expect(client?.argv).toEqual(['/opt/claude', '-p', 'Tidy "my" notes\n']);
    expect(client?.end).toMatchObject({ code: 0 });
  });

  it('sees a process put SIGINT or SIGTERM back to the default action after its first signal', () => {
    const server = findProcess(trace, (argv) => argv[2] === 'mcp') as TracedProcess;
    expect(server.defaults.map((reset) => reset.signal)).toEqual(['SIGINT', 'SIGINT', 'SIGTERM']);
    expect(defaultsAfterFirstSignal(server)).toEqual([
      { signal: 'SIGINT', at: 1796115177.187942 },
      { signal: 'SIGTERM', at: 1796115177.188832 },
    ]);
    const client = findProcess(trace, (argv) => argv[0] === '/opt/claude') as TracedProcess;
    expect(defaultsAfterFirstSignal(client)).toEqual([]);
  });

  it('times the answer to the first handshake, in either protocol era', () => {
    expect(initializeAnsweredAt(trace, 23)).toBe(1796115176.508066);
    const legacy = parseTrace(
      '5  10.5 write(1, "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{\\"protocolVersion\\":\\"2025-06-18\\"}}", 80) = 80\n',
    );
    expect(initializeAnsweredAt(legacy, 5)).toBe(10.5);
    expect(initializeAnsweredAt(trace, 17)).toBeUndefined();
  });

  it('reports every address outside loopback, with the name a DNS query asked for', () => {
    expect(outsideLoopback(trace)).toEqual([
      {
        pid: 34,
        call: 'sendto',
        family: 'AF_INET',
        address: '10.255.255.53',
        port: 53,
        query: 'ab.chatgpt.com',
      },
      { pid: 35, call: 'connect', family: 'AF_INET6', address: '2001:db8::1', port: 443 },
    ]);
    expect(trace.addresses.map((address) => address.address)).toEqual([
      '127.0.0.1',
      '10.255.255.53',
      '2001:db8::1',
      '::1',
    ]);
  });

  it('takes 127.0.0.0/8 and ::1 (also mapped) as loopback, nothing else', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address), address).toBe(true);
    for (const address of ['10.0.0.1', '0.0.0.0', '::', '128.0.0.1', '::ffff:10.0.0.1', '?'])
      expect(isLoopback(address), address).toBe(false);
  });
});
