/**
 * One canonical tool vocabulary. Skills write `allowed-tools` in two dialects: Claude-style tool
 * names (`Read`, `Bash(git:*)`) and the agent format's virtual devices (`/dev/fs /dev/shell`); both map
 * here. Hosts name their tools either way too.
 */
export const CANONICAL_TOOLS = [
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'bash',
  'web_fetch',
  'web_search',
  'notebook_edit',
  'task',
  'todo',
  'activate_skill',
  'read_skill_resource',
  'run_skill_script',
  'search_skills',
] as const;

/**
 * The runtime's own tools that the host allows unless it says otherwise (a ceiling without them,
 * a deny rule or a host default still applies): activating a usable skill, reading its files
 * within bounds, searching the catalog. Running a script is never among them.
 */
export const RUNTIME_TOOLS_ALLOWED_BY_DEFAULT: readonly CanonicalTool[] = [
  'activate_skill',
  'read_skill_resource',
  'search_skills',
];

export type CanonicalTool = (typeof CANONICAL_TOOLS)[number];

/**
 * The host tools that only read the workspace, allowed unless the host says otherwise (its
 * ceiling, deny rules and defaults still apply; secret files stay hidden): reading, listing,
 * finding and searching files. Writing, editing and shell commands are asked.
 */
export const WORKSPACE_TOOLS_ALLOWED_BY_DEFAULT: readonly CanonicalTool[] = [
  'read',
  'glob',
  'grep',
];

/** Claude-style and common tool names → canonical tool. Matching ignores case. */
export const TOOL_NAMES: Readonly<Record<string, CanonicalTool>> = {
  read: 'read',
  write: 'write',
  edit: 'edit',
  multiedit: 'edit',
  glob: 'glob',
  ls: 'glob',
  grep: 'grep',
  bash: 'bash',
  shell: 'bash',
  webfetch: 'web_fetch',
  web_fetch: 'web_fetch',
  websearch: 'web_search',
  web_search: 'web_search',
  notebookedit: 'notebook_edit',
  notebook_edit: 'notebook_edit',
  task: 'task',
  todowrite: 'todo',
  todo: 'todo',
  activate_skill: 'activate_skill',
  read_skill_resource: 'read_skill_resource',
  run_skill_script: 'run_skill_script',
  search_skills: 'search_skills',
  // The names the model is offered them by (RuntimeToolName).
  skillhost_activate: 'activate_skill',
  skillhost_read: 'read_skill_resource',
  skillhost_run: 'run_skill_script',
  skillhost_search: 'search_skills',
  // The host tools over the workspace (WorkspaceToolName).
  workspace_read: 'read',
  workspace_list: 'glob',
  workspace_glob: 'glob',
  workspace_grep: 'grep',
  workspace_write: 'write',
  workspace_edit: 'edit',
  workspace_bash: 'bash',
};

/** The virtual devices → the tools each one stands for. */
export const DEVICES: Readonly<Record<string, readonly CanonicalTool[]>> = {
  '/dev/fs': ['read', 'write', 'edit', 'glob', 'grep'],
  '/dev/fs/read': ['read', 'glob', 'grep'],
  '/dev/shell': ['bash'],
  '/dev/net': ['web_fetch', 'web_search'],
  '/dev/scripts': ['run_skill_script'],
};

/** The canonical tool for a host or skill tool name, or undefined when it is not known. */
export function canonicalTool(name: string): CanonicalTool | undefined {
  return TOOL_NAMES[name.toLowerCase()];
}

/** Tools that can change the system: a pattern-less grant of one of these is too broad. */
export const COMMAND_TOOLS: ReadonlySet<CanonicalTool> = new Set(['bash']);

/** The runtime's own tools that every agent keeps whatever its `tools` list (its skills need them). */
const SKILL_MECHANICS: readonly CanonicalTool[] = [
  'activate_skill',
  'read_skill_resource',
  'search_skills',
];

/**
 * The tools of an agent: the host's tools narrowed to those the agent's `tools` entries name
 * (names or devices, as in allowed-tools: `/dev/fs/read`, `/dev/shell`, `Read`, `Bash`,
 * `/dev/scripts`), besides the skill mechanics, which it always keeps. No list: the host's.
 * Never wider than the host's; an entry no tool answers to (a pattern such as `Bash(git:*)`
 * included: patterns pre-approve, in allowed-tools and --allow) is returned in `unknown`.
 *
 * @example agentTools(['read', 'bash', 'write'], ['/dev/fs/read']) // { tools: ['read'], unknown: [] }
 */
export function agentTools(
  host: readonly string[],
  entries: readonly string[] | undefined,
): { readonly tools: string[]; readonly unknown: string[] } {
  if (entries === undefined) return { tools: [...host], unknown: [] };
  const named = new Set<string>(SKILL_MECHANICS);
  const unknown: string[] = [];
  for (const entry of entries) {
    const bare = entry.trim();
    const device = DEVICES[bare];
    const tool = canonicalTool(bare);
    if (device !== undefined) for (const name of device) named.add(name);
    else if (tool !== undefined) named.add(tool);
    else unknown.push(entry);
  }
  return {
    tools: host.filter((name) => named.has(canonicalTool(name) ?? name)),
    unknown,
  };
}
