// Runs as the first process of a loopback-only network namespace (and its own PID namespace,
// so that everything started here dies with it), started by namespace.ts through `unshare`
// with an IPC channel. It brings the loopback interface up, listens on 127.0.0.1 and hands that
// listening socket to the test process, which serves the fake model API on it; then it starts
// the processes the test asks for and reports their output and exit.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** @type {Map<number, import('node:child_process').ChildProcess>} */
const children = new Map();

function send(message, handle) {
  if (process.connected) process.send(message, handle);
}

const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
if (up.status !== 0) {
  send({
    type: 'failed',
    reason: `cannot bring the loopback interface up: ${(up.error?.message ?? up.stderr).trim()}`,
  });
  process.exit(1);
}

const listener = createServer();
listener.on('error', (error) => {
  send({ type: 'failed', reason: `cannot listen on 127.0.0.1: ${error.message}` });
  process.exit(1);
});
listener.listen(0, '127.0.0.1', () => {
  const { port } = listener.address();
  // The test process accepts on it from now on; this copy must not take connections.
  process.send({ type: 'ready', port }, listener, () => listener.close());
});

process.on('message', (message) => {
  if (message.type === 'spawn') {
    const child = spawn(message.command, message.args, {
      cwd: message.cwd,
      env: message.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, as a terminal's foreground job: a group signal reaches it all.
      detached: message.detached === true,
    });
    children.set(message.id, child);
    child.on('spawn', () => send({ type: 'spawned', id: message.id, pid: child.pid }));
    for (const stream of ['stdout', 'stderr']) {
      child[stream].on('data', (chunk) =>
        send({ type: 'output', id: message.id, stream, data: chunk.toString('utf8') }),
      );
    }
    child.on('error', (error) => send({ type: 'error', id: message.id, message: error.message }));
    child.on('close', (code, signal) => {
      children.delete(message.id);
      send({ type: 'exit', id: message.id, code, signal });
    });
  } else if (message.type === 'signal') {
    const child = children.get(message.id);
    if (child?.pid === undefined) return;
    try {
      if (message.group === true) process.kill(-child.pid, message.signal);
      else child.kill(message.signal);
    } catch {
      // Already gone.
    }
  }
});

// The test process is gone or done: end everything (leaving the PID namespace ends the rest).
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
