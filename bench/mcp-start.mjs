// Spawn to the MCP initialize answer: a real SDK client connects over stdio (connect resolves
// once the server has answered initialize), then closes. Returns milliseconds.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export async function initializeTime(argv, env = {}) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: argv,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'ignore',
  });
  const started = performance.now();
  await client.connect(transport);
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}
