import type { CommandEntry } from './command.js';
import {
  AGENT_HELP,
  CHAT_HELP,
  MCP_HELP,
  SESSIONS_HELP,
  TOOLS_HELP,
  UI_HELP,
} from './help/agents.js';
import {
  ADD_HELP,
  COMPLETION_HELP,
  DISABLE_HELP,
  DOCTOR_HELP,
  ENABLE_HELP,
  INIT_HELP,
  INSTALL_HELP,
  REMOVE_HELP,
  TRUST_HELP,
  UPDATE_HELP,
} from './help/manage.js';
import {
  APPROVALS_HELP,
  APPROVE_HELP,
  AUDIT_HELP,
  POLICY_HELP,
  RUN_HELP,
  SANDBOX_HELP,
  SETUP_HELP,
} from './help/scripts.js';
import {
  ACTIVATE_HELP,
  CATALOG_HELP,
  LIST_HELP,
  READ_HELP,
  READ_PROPERTIES_HELP,
  ROUTE_HELP,
  TO_PROMPT_HELP,
  VALIDATE_HELP,
} from './help/skills.js';

/** Every command, with its help text; modules load only when their command runs. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    summary: 'Check skills against the Agent Skills specification',
    help: VALIDATE_HELP,
    load: async () => import('./commands/validate.js'),
  },
  {
    name: 'read-properties',
    summary: "Print a skill's properties as JSON (reference format)",
    help: READ_PROPERTIES_HELP,
    load: async () => import('./commands/read-properties.js'),
  },
  {
    name: 'to-prompt',
    summary: 'Print the <available_skills> XML block for a system prompt',
    help: TO_PROMPT_HELP,
    load: async () => import('./commands/to-prompt.js'),
  },
  {
    name: 'list',
    summary: 'List the skills of every source, with trust and status',
    help: LIST_HELP,
    load: async () => import('./commands/list.js'),
  },
  {
    name: 'catalog',
    summary: 'Print the catalog (L1) a model sees: names and descriptions',
    help: CATALOG_HELP,
    load: async () => import('./commands/catalog.js'),
  },
  {
    name: 'activate',
    summary: 'Activate a skill (L2): print its body as a model receives it',
    help: ACTIVATE_HELP,
    load: async () => import('./commands/activate.js'),
  },
  {
    name: 'route',
    summary: 'Rank skills for a task (the router form of activation)',
    help: ROUTE_HELP,
    load: async () => import('./commands/route.js'),
  },
  {
    name: 'read',
    summary: "Read one of a skill's files (L3), within bounds",
    help: READ_HELP,
    load: async () => import('./commands/read.js'),
  },
  {
    name: 'run',
    summary: "Run one of an active skill's scripts in the sandbox",
    help: RUN_HELP,
    load: async () => import('./commands/run.js'),
  },
  {
    name: 'policy',
    summary: "Explain a skill's allowed-tools, or check a command against the policy",
    help: POLICY_HELP,
    load: async () => import('./commands/policy.js'),
  },
  {
    name: 'audit',
    summary: 'Show, tail or verify the audit log',
    help: AUDIT_HELP,
    load: async () => import('./commands/audit.js'),
  },
  {
    name: 'agent',
    summary: 'Run an agent on a task, list agents, show one, or print its system prompt',
    help: AGENT_HELP,
    load: async () => import('./commands/agent.js'),
  },
  {
    name: 'chat',
    summary: 'Talk with an agent, turn after turn, at a terminal',
    help: CHAT_HELP,
    load: async () => import('./commands/chat.js'),
  },
  {
    name: 'tools',
    summary: 'Show the tool definitions a model would receive',
    help: TOOLS_HELP,
    load: async () => import('./commands/tools.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve the skills as an MCP server (stdio or Streamable HTTP)',
    help: MCP_HELP,
    load: async () => import('./commands/mcp.js'),
  },
  {
    name: 'sessions',
    summary: 'List the agent sessions, or show one',
    help: SESSIONS_HELP,
    load: async () => import('./commands/sessions.js'),
  },
  {
    name: 'ui',
    summary: 'Inspect skills, the catalog, sessions and the audit trail in a browser',
    help: UI_HELP,
    load: async () => import('./commands/ui.js'),
  },
  {
    name: 'approve',
    summary: 'Approve a skill script ahead, for its exact content, without running it',
    help: APPROVE_HELP,
    load: async () => import('./commands/approve.js'),
  },
  {
    name: 'sandbox',
    summary: 'Explain what a skill script would see in the sandbox, without running it',
    help: SANDBOX_HELP,
    load: async () => import('./commands/sandbox.js'),
  },
  {
    name: 'setup',
    summary: "Install a skill's declared dependencies into an environment its scripts use",
    help: SETUP_HELP,
    load: async () => import('./commands/setup.js'),
  },
  {
    name: 'approvals',
    summary: 'List or revoke the stored approvals',
    help: APPROVALS_HELP,
    load: async () => import('./commands/approvals.js'),
  },
  {
    name: 'trust',
    summary: 'Trust a project folder, so that its project skills load',
    help: TRUST_HELP,
    load: async () => import('./commands/trust.js'),
  },
  {
    name: 'add',
    summary: 'Install skills from a folder, a git repository or an archive',
    help: ADD_HELP,
    load: async () => import('./commands/add.js'),
  },
  {
    name: 'install',
    summary: 'Install exactly the skills skills-lock.json records',
    help: INSTALL_HELP,
    load: async () => import('./commands/install.js'),
  },
  {
    name: 'update',
    summary: 'Update installed skills from their sources, showing what changed',
    help: UPDATE_HELP,
    load: async () => import('./commands/update.js'),
  },
  {
    name: 'remove',
    summary: 'Remove an installed skill and its lockfile entry',
    help: REMOVE_HELP,
    load: async () => import('./commands/remove.js'),
  },
  {
    name: 'enable',
    summary: 'Offer a disabled skill again',
    help: ENABLE_HELP,
    load: async () => import('./commands/enable.js'),
  },
  {
    name: 'disable',
    summary: 'Never offer a skill, whichever source has it',
    help: DISABLE_HELP,
    load: async () => import('./commands/disable.js'),
  },
  {
    name: 'init',
    summary: 'Create a new skill that passes strict validation',
    help: INIT_HELP,
    load: async () => import('./commands/init.js'),
  },
  {
    name: 'doctor',
    summary: 'Check the machine, sources, files, keys and MCP clients, with fixes',
    help: DOCTOR_HELP,
    load: async () => import('./commands/doctor.js'),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script (bash, zsh or fish)',
    help: COMPLETION_HELP,
    load: async () => import('./commands/completion.js'),
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}
