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
