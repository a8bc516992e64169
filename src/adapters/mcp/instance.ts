import { type GetPromptResult, McpServer, type Tool } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import { type RegistryEntry, SkillhostError, type SkillRuntime } from '../../node/index.js';
import { protocolErrorOf } from './errors.js';
import { type ResourceLimits, SkillResources } from './resources.js';
import { skillsExtension } from './skills.js';
import { toCallToolResult } from './tool-result.js';

/**
 * What one server instance is made of. Everything but the identity and the instructions is
 * asked for when a request needs it, so that an instance can answer `initialize` before the
 * runtime is open (see `serveStdio`'s start state); no other request reaches it before then.
 */
export interface InstanceParts {
  readonly name: string;
  readonly version: string;
  readonly instructions: string;
  readonly limits: ResourceLimits;
  /** The runtime session this instance answers from. */
  readonly session: () => SkillRuntime;
  /** The tool list, as `tools/list` answers it. */
  readonly tools: () => Tool[];
  /** A skill's frontmatter as `skills/list` shows it. */
  readonly frontmatter: (entry: RegistryEntry, resources: SkillResources) => Skill['frontmatter'];
}

/** A fresh server instance over one runtime session (not yet connected). */
export function buildInstance(parts: InstanceParts): McpServer {
  const { session } = parts;
  const mcp = new McpServer(
    { name: parts.name, version: parts.version },
    { instructions: parts.instructions },
  );
  const server = mcp.server;
  const resources = new SkillResources(session, parts.limits);
  // The skills extension registers the skill:// resource template (and so the SDK's resource
  // handlers) and the skills methods; it must come before the handlers set below.
  skillsExtension(
    resources,
    () => session().offered(),
    (entry) => parts.frontmatter(entry, resources),
  ).attach(mcp);
  server.registerCapabilities({
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { listChanged: true },
  });
  server.setRequestHandler('tools/list', () => ({ tools: parts.tools() }));
  server.setRequestHandler('tools/call', async (request) => {
    const result = await session().callTool(request.params.name, request.params.arguments ?? {});
    return server.projectCallToolResult(toCallToolResult(result), undefined);
  });
  server.setRequestHandler('prompts/list', () => ({
    prompts: session()
      .offered()
      .map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
      })),
  }));
  server.setRequestHandler('prompts/get', (request) =>
    prompt(session(), resources, request.params.name),
  );
  // Replaces the SDK's resources/read, which normalises the URI (folding `..` and `%2e%2e`
  // away) before a handler sees it: escape attempts are refused as sent, not repaired.
  server.setRequestHandler('resources/read', (request) => resources.read(request.params.uri));
  return mcp;
}

/**
 * A skill as a prompt: the user's explicit activation. The body is always sent in full (the
 * server cannot know whether this conversation has seen it), and the activation is recorded.
 */
function prompt(session: SkillRuntime, resources: SkillResources, name: string): GetPromptResult {
  const entry = resources.offered(name);
  try {
    if (entry === undefined) {
      const shown = String(name).slice(0, 200);
      const refusal = new SkillhostError(
        'SKILL_NOT_FOUND',
        `No skill named ${JSON.stringify(shown)} is offered`,
      );
      // The runtime never sees this request; it records the refusal as it records its own.
      session.recordRefusal({
        event: 'skill-activate',
        skill: shown,
        triggeredBy: 'user',
        error: refusal,
      });
      throw refusal;
    }
    const activation = session.activate(entry.name, { triggeredBy: 'user', resend: true });
    return {
      description: entry.metadata?.description ?? '',
      messages: [{ role: 'user', content: { type: 'text', text: activation.text } }],
    };
  } catch (error) {
    throw protocolErrorOf(error);
  }
}
