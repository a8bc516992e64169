// Drives a real command-line agent with skillhost's driver, as an agent run will: a runtime over
// the scratch skills (its own audit log), the approval broker with scripted answers, the policy's
// permission handler, and `skillhost mcp` (the built bin) as the agent's MCP server. Runs inside
// the clients suite's namespace, under strace; prints every event as one JSON line, then the exit.
// Its settings come as JSON in the file named by RUNNER_CONFIG.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.env.RUNNER_CONFIG, 'utf8'));
const dist = (path) => import(pathToFileURL(join(config.root, 'dist', path)).href);
const { createSkillRuntime, createJsonlAuditSink, nodeRuntimeDeps, sha256 } =
  await dist('node/index.js');
const { ApprovalBroker, claudeBuiltinTools, claudePermissionFlags, policyPermissions, runCliTurn } =
  await dist('internal.js');
const { createCliAgentDriver, skillhostMcpServer, MCP_SERVER_NAME } =
  await dist('node/cli-agents.js');

const print = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);

const broker = new ApprovalBroker({
  hash: sha256,
  // The user at the terminal, scripted: the first answer whose text the summary holds.
  ask: async (request) => {
    const rule = config.answers.find((answer) => request.summary.includes(answer.match));
    return rule === undefined
      ? { decision: 'denied', reason: 'no scripted answer' }
      : rule.decision === 'denied'
        ? { decision: 'denied', reason: rule.reason ?? 'scripted' }
        : { decision: rule.decision };
  },
  onRequest: (request) =>
    print({
      type: 'approval-request',
      id: request.id,
      summary: request.summary,
      question: request.question,
    }),
  onDecision: (request, decision, by) =>
    print({ type: 'approval-decision', id: request.id, decision: decision.decision, by }),
});
const sink = createJsonlAuditSink(config.auditLog);
const runtime = createSkillRuntime({
  sources: [
    { id: 'scratch', kind: 'explicit', root: config.skills, trust: 'trusted', enabled: true },
  ],
  policy: config.policy,
  audit: { sink, sessionId: randomUUID() },
  deps: nodeRuntimeDeps({ confirm: broker.confirm }),
});
const permissions = policyPermissions({
  authorize: (request) => runtime.authorize(request),
  confirm: broker.confirm,
  beginCall: (id) => broker.beginCall(id),
  workspace: config.project,
});
const flags = claudePermissionFlags(config.policy, MCP_SERVER_NAME);
const env = { ...process.env };
delete env.RUNNER_CONFIG;
const driver = createCliAgentDriver({
  provider: config.provider,
  env,
  cwd: config.project,
  command: config.command,
  commandPrefix: config.prefix ?? [],
  policy: config.policy,
  claude: {
    builtinTools: claudeBuiltinTools(config.policy.tools),
    allowedTools: flags.allowed,
    disallowedTools: flags.disallowed,
  },
});
try {
  print({ type: 'probe', ...(await driver.probe()) });
  const session = await driver.start({
    system: config.system,
    cwd: config.project,
    env,
    mcpServer: skillhostMcpServer({
      args: config.serverArgs,
      env: config.serverEnv,
      binPath: config.bin,
    }),
    permissions,
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.workspace === undefined ? {} : { workspace: config.workspace }),
    onSessionStart: () => 'SKILLS-STATE-MARKER',
  });
  for (const message of config.messages) {
    for await (const event of runCliTurn(session, message)) print({ type: 'event', event });
  }
  print({ type: 'exit', ...(await session.close()) });
} catch (error) {
  print({ type: 'failed', code: error.code ?? null, message: error.message });
  process.exitCode = 1;
} finally {
  await runtime.close();
  sink.close();
}
