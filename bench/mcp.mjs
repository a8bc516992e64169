// Benchmarks `skillhost mcp` over a registry of generated skills, with the SDK's real client:
// p50/p99 of sequential tools/list and skillhost_activate calls over stdio and loopback HTTP, and
// cold start (`skillhost --version`; `skillhost mcp` until the initialize response). The floor,
// measured in the same run with the same client, is an MCP server with one trivial tool built
// directly on the SDK (this file, run with --floor-server), over the same transports.
// Spawn to initialize is measured at each of --start-sizes (default 1 and 10,000 skills) with a
// warm index cache, against the SDK server in the same run, and printed as a ratio.
// Usage: npm run bench:mcp -- [--skills 1000] [--calls 1000] [--rounds 10] [--start-sizes 1,10000]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);

/** The floor: one trivial tool on the SDK's high-level server, over stdio or HTTP. */
async function floorServer() {
  const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
  const { z } = await import('zod');
  const build = () => {
    const server = new McpServer({ name: 'floor', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Returns its input.', inputSchema: z.object({ name: z.string() }) },
      async ({ name }) => ({ content: [{ type: 'text', text: name }] }),
    );
    return server;
  };
  if (!args.includes('--http')) {
    const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
    serveStdio(build);
    return;
  }
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const serve = toNodeHandler(createMcpHandler(build));
  const server = createServer((request, response) => void serve(request, response));
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`serving MCP at http://127.0.0.1:${server.address().port}/mcp\n`);
  });
}

if (args.includes('--floor-server')) {
  await floorServer();
} else {
  await benchmark();
}

async function benchmark() {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport, getDefaultEnvironment } = await import(
    '@modelcontextprotocol/client/stdio'
  );
  const { generateTree } = await import('./generate.mjs');
  const root = resolve(here, '..');
  const bin = join(root, 'dist', 'cli', 'bin.js');
  const skillCount = Number(option('skills', '1000'));
  const calls = Number(option('calls', '1000'));
  const rounds = Number(option('rounds', '10'));
  const startSizes = option('start-sizes', '1,10000').split(',').map(Number);
  const tree = generateTree(resolve(root, option('cache', '.bench-cache')), skillCount);
  const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-mcp-'));
  const env = { ...getDefaultEnvironment(), SKILLHOST_HOME: join(scratch, 'home') };
  const sources = ['--no-default-sources', '--skills', tree];

  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  };
  const median = (values) => percentile(values, 0.5);
  const ms = (value) => value.toFixed(value < 10 ? 2 : 1);

  const newClient = () => new Client({ name: 'bench', version: '1.0.0' });
  const stdioTarget = (argv) => () =>
    new StdioClientTransport({ command: process.execPath, args: argv, env, stderr: 'ignore' });

  /** Spawns an HTTP server process and resolves with its URL (printed on stderr) and a stop. */
  function httpServer(argv) {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (chunk) => {
        text += chunk;
        const match = /serving MCP at (http:\S+)/.exec(text);
        if (match) resolvePromise({ url: new URL(match[1]), stop: () => child.kill('SIGTERM') });
      });
      child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${text}`)));
    });
  }

  /** Times `count` sequential calls; returns the samples in milliseconds. */
  async function time(count, call) {
    const samples = [];
    for (let index = 0; index < count; index += 1) {
      const started = performance.now();
      await call(index);
      samples.push(performance.now() - started);
    }
    return samples;
  }

  /** tools/list and the activation (or, for the floor, the trivial tool) over one connection. */
  async function latencies(client, activate) {
    await client.listTools({}, { cacheMode: 'bypass' });
    const list = await time(calls, () => client.listTools({}, { cacheMode: 'bypass' }));
    const call = await time(calls, async (index) => {
      const result = await client.callTool(activate(index));
      if (result.isError) throw new Error(JSON.stringify(result.content));
    });
    return { list, call };
  }

  // Activation is deduplicated per session: each call names another skill, so every one of
  // them is a first activation (a fresh read of SKILL.md, a file listing, an audit record).
  const listing = spawnSync(process.execPath, [bin, 'list', '--json', ...sources], {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const names = JSON.parse(listing.stdout)
    .skills.filter((entry) => entry.status === 'active')
    .map((entry) => entry.name);
  if (names.length < skillCount) throw new Error(`only ${names.length} usable skills listed`);
  const activateSkill = (index) => ({
    name: 'skillhost_activate',
    arguments: { name: names[index % names.length] },
  });
  const echo = (index) => ({ name: 'echo', arguments: { name: `call-${index}` } });

  const rows = [];
  for (const transport of ['stdio', 'http']) {
    const results = {};
    for (const [label, argv, activate] of [
      ['skillhost', [bin, 'mcp', ...sources], activateSkill],
      ['floor', [self, '--floor-server'], echo],
    ]) {
      const client = newClient();
      let stop = () => {};
      if (transport === 'stdio') {
        await client.connect(stdioTarget(argv)());
      } else {
        const server = await httpServer([
          ...argv,
          ...(label === 'floor' ? ['--http'] : ['--http', '0']),
        ]);
        stop = server.stop;
        await client.connect(new StreamableHTTPClientTransport(server.url));
      }
      results[label] = await latencies(client, activate);
      await client.close();
      stop();
    }
    for (const [operation, key, floorOperation] of [
      ['tools/list', 'list', 'tools/list (1 tool)'],
      ['tools/call skillhost_activate', 'call', 'tools/call echo'],
    ]) {
      const mine = results.skillhost[key];
      const floor = results.floor[key];
      rows.push(
        `| ${transport} | ${operation} | ${ms(percentile(mine, 0.5))} | ${ms(percentile(mine, 0.99))} | ${floorOperation} | ${ms(percentile(floor, 0.5))} | ${ms(percentile(floor, 0.99))} | ${(percentile(mine, 0.5) / percentile(floor, 0.5)).toFixed(1)}x |`,
      );
    }
  }

  /** Spawn to the initialize response (connect resolves after it), then close. */
  async function coldStart(argv) {
    const samples = [];
    for (let round = 0; round <= rounds; round += 1) {
      const client = newClient();
      const started = performance.now();
      await client.connect(stdioTarget(argv)());
      const elapsed = performance.now() - started;
      await client.close();
      if (round > 0) samples.push(elapsed);
    }
    return median(samples);
  }
  function processTime(argv) {
    const samples = [];
    for (let round = 0; round <= rounds; round += 1) {
      const started = performance.now();
      const result = spawnSync(process.execPath, argv, { env, stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}`);
      if (round > 0) samples.push(performance.now() - started);
    }
    return median(samples);
  }
  const bare = processTime(['-e', '0']);
  const version = processTime([bin, '--version']);
  const starts = [['`skillhost --version` (exit)', version, '`node -e 0`', bare]];
  // Spawn to initialize at each size, with a warm index (the first start of the warm-up round
  // writes it), against the SDK's own minimal server measured in the same run.
  for (const size of startSizes) {
    const startTree = generateTree(resolve(root, option('cache', '.bench-cache')), size);
    const startSources = ['--no-default-sources', '--skills', startTree];
    const floorStart = await coldStart([self, '--floor-server']);
    const label = `${size.toLocaleString('en-US')} skill${size === 1 ? '' : 's'}`;
    starts.push(
      [
        `\`skillhost mcp\` to initialize, ${label} (index warm)`,
        await coldStart([bin, 'mcp', ...startSources]),
        'SDK server to initialize',
        floorStart,
      ],
      [
        `\`skillhost mcp --no-watch\`, ${label}`,
        await coldStart([bin, 'mcp', '--no-watch', ...startSources]),
        'SDK server to initialize',
        floorStart,
      ],
      [
        `\`skillhost mcp --no-cache\`, ${label} (no index)`,
        await coldStart([bin, 'mcp', '--no-cache', ...startSources]),
        'SDK server to initialize',
        floorStart,
      ],
    );
  }

  console.log(
    `skillhost mcp benchmarks (node ${process.version}, ${skillCount} skills, ${calls} sequential calls per row, SDK client, 2025-11-25 protocol)`,
  );
  console.log('');
  console.log(
    '| transport | operation | p50 ms | p99 ms | floor operation | floor p50 ms | floor p99 ms | p50 ratio |',
  );
  console.log('| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log('');
  console.log(`Cold start (median of ${rounds} runs, after one warm-up):`);
  console.log('');
  console.log('| measure | ms | floor | floor ms | ratio |');
  console.log('| --- | ---: | --- | ---: | ---: |');
  for (const [measure, value, floorMeasure, floorValue] of starts) {
    console.log(
      `| ${measure} | ${ms(value)} | ${floorMeasure} | ${ms(floorValue)} | ${(value / floorValue).toFixed(1)}x |`,
    );
  }
  rmSync(scratch, { recursive: true, force: true });
}
