import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const variants = JSON.parse(process.argv[2]);
const rounds = Number(process.argv[3] ?? 11);
const res = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let r = 0; r <= rounds; r++) for (const [k, argv] of Object.entries(variants)) {
  const c = new Client({ name: 'b', version: '1' });
  const t = performance.now();
  await c.connect(new StdioClientTransport({ command: process.execPath, args: argv, env: { ...process.env, SKILLHOST_HOME: '/tmp/h10/home' }, stderr: 'ignore' }));
  const e = performance.now() - t; await c.close(); if (r > 0) res[k].push(e);
}
const med = (v) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
const min = (v) => Math.min(...v);
const base = med(Object.values(res)[0]); const baseMin = min(Object.values(res)[0]);
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(12), 'median', med(v).toFixed(1), (med(v) / base).toFixed(2) + 'x', ' min', min(v).toFixed(1), (min(v) / baseMin).toFixed(2) + 'x');
