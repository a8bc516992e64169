import type { CommandEntry } from './command.js';
import { RUNTIME_OPTIONS_HELP, SESSION_OPTIONS_HELP, SOURCE_OPTIONS_HELP } from './source-help.js';

/** Every command, with its help text; modules load only when their command runs. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    summary: 'Check skills against the Agent Skills specification',
    help: `Usage: skillhost validate [options] PATH...

Check skills against the Agent Skills specification.

Each PATH is a skill directory, a SKILL.md file, or a folder holding skill
directories at any depth (.git and node_modules are skipped; linked directories
are reported, not followed, unless --follow-symlinks). Strict by default: every
rule of the specification is an error, as in the reference validator.

Options:
  --lenient               Validate as runtime loading does: only what makes a
                          skill unusable is an error; the rest are warnings
  --format text|json|github
                          Output format (default: text)
  --json                  Same as --format json
  -q, --quiet             Print only errors and the summary (text and github)
  --max-depth N           Deepest folder level searched below a PATH (default 8)
  --follow-symlinks       Follow symbolically linked directories (never into a
                          loop); without it they are reported and skipped
  -h, --help              Show this help

Output:
  text    compiler-style diagnostics (file:line:col, severity, code, message,
          an excerpt with a caret, a hint) and a summary line; colour on a TTY
  json    {"results": [{"path", "valid", "diagnostics", "properties"}],
           "summary": {"skills", "valid", "invalid"}}
  github  GitHub Actions annotations (::error file=...,line=...::message), the
          file relative to the repository root (the folder holding .git, or
          $GITHUB_WORKSPACE), so that each annotation lands on the diff

The summary counts skills only: a PATH that does not exist is reported, and
not counted as a checked skill.

A folder of 20,000 skill folders or more is checked on two threads, with the
same output. SKILLHOST_THREADS=1 keeps to one thread; SKILLHOST_THREADS=2 uses
the second for a folder of any size (any other value: the default).

Exit codes:
  0  every skill is valid (warnings allowed)
  1  at least one skill is invalid, or a PATH holds no skill
  2  usage error, or a PATH that does not exist or cannot be read`,
    load: async () => import('./commands/validate.js'),
  },
  {
    name: 'read-properties',
    summary: "Print a skill's properties as JSON (reference format)",
    help: `Usage: skillhost read-properties PATH

Print a skill's frontmatter properties as JSON, in the shape of the reference
validator's read-properties: name and description (trimmed), then license,
compatibility and allowed-tools when present, and metadata when not empty.
PATH is a skill directory or its SKILL.md. The skill is parsed, not validated:
use skillhost validate for that.

Options:
  -h, --help   Show this help

Exit codes:
  0  printed
  1  the skill cannot be parsed, or has no usable name or description
  2  usage error, or PATH does not exist`,
    load: async () => import('./commands/read-properties.js'),
  },
  {
    name: 'to-prompt',
    summary: 'Print the <available_skills> XML block for a system prompt',
    help: `Usage: skillhost to-prompt PATH...

Print the <available_skills> XML block that lists each skill's name, description
and SKILL.md location, byte for byte as the reference validator's to-prompt.
Each PATH is a skill directory, its SKILL.md, or a folder holding skills (its
skills are listed in sorted order; those that cannot be read are skipped with a
message on stderr). A folder of 20,000 skill folders or more is read on two
threads, as validate does (SKILLHOST_THREADS=1 keeps to one).

Options:
  -h, --help   Show this help

Exit codes:
  0  printed
  1  a skill given directly cannot be read
  2  usage error, or a PATH does not exist`,
    load: async () => import('./commands/to-prompt.js'),
  },
  {
    name: 'list',
    summary: 'List the skills of every source, with trust and status',
    help: `Usage: skillhost list [options]

List every skill found in the sources: its name, source, trust, status and
path. A skill's name is its folder's name; when its SKILL.md claims another
name, NOTES shows it ("claims name '...'"; claimedName in JSON). Status is one
of: active (offered to the model), shadowed (another skill with the same name
takes precedence; still reachable as name@source), skipped (has errors),
untrusted (in a project folder that is not trusted yet) and disabled
(skillhost disable). NOTES also shows the skill's first error or warning (its
code and message) and how many more it has (--verbose lists them all), and
"modified" for an installed skill whose files differ from skills-lock.json
("lock": "modified" in JSON). The last lines say which project folder was used
and how it was found. Only metadata is read: no skill body enters memory.

Options:
  --sources               List the folders searched instead: ID, tool, trust,
                          state (searched, missing, not trusted, switched off)
                          and how many skills each holds
  -v, --verbose           Every error and warning of each skill, with its place
  -q, --quiet             Only the skills with errors, and the summary
  --json                  Print JSON

${SOURCE_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  listed (skills with errors are listed as skipped)
  2  usage error, or the user config cannot be read`,
    load: async () => import('./commands/list.js'),
  },
  {
    name: 'catalog',
    summary: 'Print the catalog (L1) a model sees: names and descriptions',
    help: `Usage: skillhost catalog [options]

Print the catalog of usable skills: one line per skill with its name and
description (sanitised to one line, invisible characters removed), trusted
skills first, values escaped for the format. Untrusted project skills and
skills with errors are left out. With no usable skill, nothing is printed.

With --budget, the catalog fits that many tokens (o200k), filled as fully as
it allows: when the estimate shows that everything fits with room to spare,
nothing is counted; otherwise the o200k tokenizer counts the text that decides
the cut. Which skills stay visible: trusted before untrusted, then pinned
skills ("pinnedSkills" in $SKILLHOST_HOME/config.json, or --pin), then those
used most and most recently according to the audit log, then by name.
Descriptions of the others are shortened, then dropped, then skills are
hidden, and a marker says how many are hidden and that the skillhost_search
tool finds them.

Options:
  --format xml|markdown|json
                          Output format (default: xml)
  --json                  Same as --format json
  --budget TOKENS         Most tokens the catalog may take
  --explain               Say on stderr what was cut and why, skill by skill
                          (as JSON with --format json: tokens, exact, counts,
                          decisions, explain)
  --pin NAME              Keep this skill visible first (repeatable)
  --locations             Include each SKILL.md path
  --audit-log PATH        The audit log whose activations rank the skills
                          (default: $SKILLHOST_HOME/audit.jsonl)

${SOURCE_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  printed (also when there is no usable skill)
  2  usage error`,
    load: async () => import('./commands/catalog.js'),
  },
  {
    name: 'activate',
    summary: 'Activate a skill (L2): print its body as a model receives it',
    help: `Usage: skillhost activate [options] NAME

Print what a model receives when it activates the skill NAME (or NAME@SOURCE
for a shadowed copy): the body of SKILL.md, read fresh from disk, wrapped with
the skill's directory and a listing of its files (not their contents). Names
are only looked up in the registry, never used as paths. The activation is
recorded in the audit log (the command fails if it cannot be written).

An untrusted skill activated by the model or the router (not by the user) is
confirmed first: at a terminal you are asked yes once / no / always for this
exact content (the SHA-256 of its SKILL.md); without a terminal it is refused
with PERMISSION_REQUIRED. "Always" is stored in $SKILLHOST_HOME/config.json.

Options:
  --triggered-by model|user|router
                          Who activates it (default: user, which asks
                          nothing: it is your own choice)
  --json                  Print the activation as JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

A skill that skillhost list shows as skipped or untrusted is SKILL_UNAVAILABLE,
with the reason and its first error; an unknown NAME is SKILL_NOT_FOUND, with
the names it may have meant.

Exit codes:
  0  printed
  1  no such skill (SKILL_NOT_FOUND), or it cannot be used (SKILL_UNAVAILABLE,
     SKILL_INVALID)
  2  usage error
  3  refused: not confirmed (PERMISSION_REQUIRED), refused by you or the
     policy (PERMISSION_DENIED)`,
    load: async () => import('./commands/activate.js'),
  },
  {
    name: 'route',
    summary: 'Rank skills for a task (the router form of activation)',
    help: `Usage: skillhost route [options] "TASK"

Rank the usable skills by relevance to TASK and say why, term by term. Words
are reduced to their stem (plurals and verb forms meet: "slides" finds
"slide decks"), stop words and the words of asking ("need", "please") are left
out, and a few file formats meet the words for them (pptx and slides, xlsx and
spreadsheet). A skill's name weighs most, then the part of its description that
says when to use it, then the rest; two adjacent words of the task found
together count as a phrase. Term frequency saturates (BM25F), and a description
flagged DESCRIPTION_KEYWORD_STUFFING counts each term once. Skills named in the
task as /name or $name are selected directly. Untrusted skills are marked
[untrusted] ("trusted": false in --json) and ranked after every trusted match.

The rest are selected in order while each scores at least --threshold and 70%
of the best score, and matches enough of the task (its terms weighed by how
rare they are among the skills; under 40% it must also score a quarter more
than the next skill, so that "quarterly review" picks no code review skill);
selection stops at the first that falls short, so an untrusted skill is never
selected ahead of a trusted one that matches.

Options:
  --explain               Show how the task was read (its terms, phrases and the
                          stop words left out) and, for each skill, each term's
                          score, rarity and the fields it was found in, and why
                          the skill was or was not selected
  --threshold N           Least score to select a skill (default 2)
  --limit N               Most skills selected (default 3)
  --json                  Print JSON (with the same explanation)

${SOURCE_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  printed (also when nothing matches)
  2  usage error`,
    load: async () => import('./commands/route.js'),
  },
  {
    name: 'read',
    summary: "Read one of a skill's files (L3), within bounds",
    help: `Usage: skillhost read [options] NAME PATH

Print the file PATH of the skill NAME. PATH must be a plain relative path
inside the skill (no .., no absolute, ~, backslash, drive-letter or %-escaped
forms); it is opened inside the skill directory and checked to be a regular
file there; at most --max-bytes are read. A binary file is reported, or printed
as base64 with --json.

A PATH that is not in the skill gets the paths it may have meant (the same
name in another case, as a body's FORMS.md for a file forms.md, or a close
spelling).

Options:
  --max-bytes N           Largest file read (default 1048576)
  --no-binary             Refuse binary files (RESOURCE_BINARY_REFUSED)
  --json                  Print JSON (a binary file as base64)

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  printed
  1  refused or not found (a RESOURCE_* or SKILL_* code says why)
  2  usage error`,
    load: async () => import('./commands/read.js'),
  },
  {
    name: 'run',
    summary: "Run one of an active skill's scripts in the sandbox",
    help: `Usage: skillhost run [options] NAME SCRIPT [-- ARGS...]

Activate the skill NAME and run SCRIPT (a path under its scripts/ folder) with
ARGS, in an OS sandbox (bubblewrap): no network, the system folders read-only,
no home folders, the skill staged read-only at /skill and at its own path (the
exact bytes that were checked and hashed; files with doubtful links, owner or
permissions are left out of an untrusted skill, and named), an environment
built from scratch, a PID namespace, limits on processes, memory, file size,
open files and all bytes written, a wall-clock timeout that kills every
process, capped output.

The working directory is the project folder (the current one, or --project),
read-only and at its own path, so files given as arguments work as given;
.env, .env.*, *.pem, *.key, id_* keys, .npmrc, .pypirc, .netrc,
.git-credentials and .git/config stay hidden (--expose to show one). Files the
script writes there are kept in .skillhost/runs/RUN-ID/ of the project (--out
DIR), or in place with --workspace-writable, and listed after the run. A
project folder that is / or holds your home folder is no workspace by default.

The interpreter comes from the file's #! line or extension: sh, bash, python3
or node; arguments are passed as argv, never through a shell. A skill that
declares packages (scripts/requirements.txt, scripts/package.json) runs with
the environment skillhost setup NAME made for its exact content. The policy
decides first: a trusted skill's allowed-tools may pre-approve the run
(e.g. Bash(python scripts/run.py:*)), unless the host's rules about commands
bind it (a run is the command INTERPRETER scripts/PATH ARGS: --deny Bash, a
--deny rule matching that command, or --tools without bash); otherwise it is
confirmed at the terminal (yes / no / always for this exact content), or
refused when not interactive unless --yes. skillhost policy explain NAME
says which. Every step goes to the audit log.

Options:
  --yes                   Approve this one run (recorded in the audit log)
  --timeout SECONDS       Wall-clock limit (default 60)
  --workspace DIR         The working directory instead of the project folder
  --no-workspace          No workspace: an empty working directory (/work)
  --expose PATH           Show a hidden secret file of the workspace (repeatable)
  --out DIR               Keep what the script writes in DIR/RUN-ID instead of
                          .skillhost/runs/RUN-ID of the project
  --workspace-writable    ... and write to it, except its protected paths: .git,
                          .husky, .pre-commit-config.yaml, git's hooks folder,
                          .agents, .skillhost, .claude, .cursor, .gemini,
                          .codex, .windsurf, .mcp.json, .github, .vscode, .idea,
                          .envrc
  --protect PATH          One more path of the writable workspace that stays
                          read-only, or absent (repeatable; relative to DIR)
  --max-write SIZE        Most bytes the script may write in all: /tmp, /work,
                          its home and the workspace (default 512M; K, M, G)
  --memory SIZE           Memory each process of the script may use (default
                          2G; K, M, G); past it the run fails: memory limit
  --allow-net             Give the script the network, once you confirm it for
                          this skill and script (or --yes; recorded)
  --allow-unsandboxed     Run without a sandbox if none is available (logged)
  --json                  Print the run's result as JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Output: the script's stdout and stderr (control characters escaped; when long,
the start and the end, with the count of bytes in between), the skill files
that were not staged if any, then one line: exit code or signal, duration,
truncation or the limit that stopped the run, sandbox, approval.

Exit codes:
  the script's exit code; 124 when it timed out; 128+n when killed by signal n
  1  no such skill, or it cannot be used
  2  usage error
  3  refused: by the policy, by the user, by the script checks, for want of a
     sandbox, for a workspace it cannot protect, or because the audit log cannot
     be written`,
    load: async () => import('./commands/run.js'),
  },
  {
    name: 'policy',
    summary: "Explain a skill's allowed-tools, or check a command against the policy",
    help: `Usage: skillhost policy explain [options] NAME
       skillhost policy check [options] NAME --bash 'COMMAND' [--json]

  explain  Entry by entry, what the skill's allowed-tools requests and what the
           host makes of it under these options: granted (pre-approves matching
           calls while the skill is active), limited (the host takes part of it
           away), overruled (the host's options leave it pre-approving nothing),
           denied, unavailable (the host lacks the tool: dropped, never added),
           narrows-only (too broad to pre-approve: Bash, Bash(*), /dev/shell, *),
           untrusted (never skips confirmation) or invalid. For a command grant,
           the options that still ask (git -c, find -exec, ...); for every script
           of the skill, what skillhost run does: runs without asking, asks
           (PERMISSION_REQUIRED when not interactive), or is refused.
  check    With the skill NAME active under these options, what the policy
           decides on the shell command COMMAND: the decision (allow, ask or
           deny), the rule and the reason. --json prints
           {"decision", "rule", "reason"}.

Commands are read as bash reads them: a deny rule matches any command that
would run (chains, pipes, $(...), backticks, <(...), bash -c '...', env, xargs,
find -exec, quoted names like 'curl' or c\\url); a command grant covers a
program doing its own work, and asks for options that run other programs.
Rules: ceiling, deny-rule, narrowed, host-default, approval,
script-as-command, unreadable-command, skill-grant, untrusted-skill,
runs-other-programs, uncovered-command (README: Security model).

Options:
  --bash COMMAND          The shell command to check (check only)
  --json                  Print JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  explained, or a decision was made (allow, ask or deny alike)
  1  no such skill; for check, also one that cannot be used or activated
     under these options
  2  usage error`,
    load: async () => import('./commands/policy.js'),
  },
  {
    name: 'audit',
    summary: 'Show, tail or verify the audit log',
    help: `Usage: skillhost audit show|tail|verify [options]
       skillhost audit prune --before DATE [options]

The audit log ($SKILLHOST_HOME/audit.jsonl, or --audit-log) holds one record
per discovery, activation, resource read, script run, permission decision and
approval: skill, source, content hash, trigger, files read, calls made, errors,
time, with a session id, a sequence number and the hash of the previous record.

It is rotated by size: once it would pass 16 MiB it is renamed with its date
(audit.20260501T102233123Z.jsonl) and a new log begins whose first record
links it to the one before (its size, SHA-256 and the sessions still open); the
8 newest rotated logs are kept ("auditLog": {"maxBytes": N, "keep": N} in
$SKILLHOST_HOME/config.json to change that).

  show     every record (of --session ID), one line each: why a skill was
           activated, what it read, what it ran (rotated logs included)
  tail     the last records (-n N, default 20)
  verify   check every session's hash chain across the log and its rotated
           logs, and each log's link to the one before: altered, removed,
           reordered or forged records, a log taken out or replaced, and a
           log cut short, are reported
  prune    remove the rotated logs whose records are all older than DATE
           (YYYY-MM-DD, or an ISO 8601 time); the current log stays, and the
           removal is recorded in it

Options:
  --audit-log PATH        The log to read
  --session ID            Only this session
  -n, --lines N           How many records tail shows
  --before DATE           With prune: remove what is older than this
  --json                  Print JSON
  -h, --help              Show this help

Exit codes:
  0  shown, pruned, or the log is intact
  1  verify found problems
  2  usage error`,
    load: async () => import('./commands/audit.js'),
  },
  {
    name: 'agent',
    summary: 'Run an agent on a task, list agents, show one, or print its system prompt',
    help: `Usage: skillhost agent run [options] NAME [TASK]
       skillhost agent list [options]
       skillhost agent show [options] NAME
       skillhost agent prompt [options] NAME

An agent is a folder NAME/ holding agent.yaml and instructions.md, found in each
--agents DIR, then <project>/.agents/agents (once the project folder is
trusted), then ~/.agents/agents. NAME is an identifier, never a path.

  run      give the agent TASK (the argument, or standard input) and let it
           work with its model to the end: one model request at a time, every
           tool call checked against its schema, decided by the policy, approved,
           run by skillhost and recorded in the audit log. Its system prompt is
           instructions.md, each preloaded skill's body headed by its directory,
           then the catalog. Its tools: the skill tools and the host tools over
           the workspace (see skillhost tools), within --tools and the agent's
           "tools" (names or devices: /dev/fs, /dev/fs/read, /dev/shell,
           /dev/scripts). Every run is a session kept as JSON Lines in
           $SKILLHOST_HOME/sessions (skillhost sessions list|show); skillhost
           chat NAME runs the same agent turn after turn.
  list     every agent, its folder and description (invalid ones marked)
  show     the manifest, the resolved provider, model and fallback, and the
           status of each skill it lists (nothing is activated)
  prompt   load it: the skills under "skills" are activated
           and their bodies join the system prompt after instructions.md
           (joined by blank lines, in manifest order); then the catalog of its
           progressive skills (only "deferred_skills" when given); prints both
           with the token count of each part (o200k). Fails when the total
           exceeds context_budget, naming the count of every part.

Model: --model > models.preferred > the provider's default; provider:
--provider > models.provider > claude. Aliases (sonnet, opus, haiku) resolve
per provider (see the README's model table); models.fallback is tried when the
model is overloaded, fails with 5xx after retries, is rate limited longer than
the retries wait, is not found, or refuses; never on a bad request.
Providers agent run calls: anthropic (Messages API, ANTHROPIC_API_KEY,
ANTHROPIC_BASE_URL), openai (Responses API, OPENAI_API_KEY, OPENAI_BASE_URL),
openai-compatible (--base-url of a local server: Ollama, vLLM, llama.cpp,
LM Studio; no key). Command-line agents, which run their own loop while
skillhost answers every permission question from the policy and serves the
skills over its MCP server: claude (Claude Code, the default; its Bash, Read,
Edit, ... are the host tools, chosen with --tools), gemini (Gemini CLI over
ACP), cursor (Cursor's CLI over ACP: agent acp; its print mode, which cannot
ask, only with --cursor-print and --yes), acp (any ACP agent, with
--acp-command "CMD ARGS"). Their model is their own default unless one is
chosen; --resume continues their own session too.
Keys come from the environment or $SKILLHOST_HOME/keys.json (readable only by
you), never from arguments, and never reach a log, the audit log or a session.

Approvals: at a terminal, one question at a time: yes once, always for this
session, no (with a reason the model reads), view the full input, or quit.
Without a terminal, and with --json, a call that needs approval is denied and
the run stops (exit 3) unless --yes or --allow approves it.

Context: before a request would pass 80% of the model's context window minus
its output reserve, old tool outputs are pruned, and if that is not enough the
earlier turns are summarised; the skills activated stay exact (the most
recently used in full, the others as stubs that skillhost_activate brings
back by their sha256), the system prompt and catalog unchanged.

Options:
  --agents DIR            A folder of agents (repeatable; searched first)
  --model MODEL           Override the model (alias or model id)
  --provider PROVIDER     Override the provider: anthropic, openai,
                          openai-compatible, or claude, gemini, cursor, acp
  --json                  Print JSON (prompt: name, provider, model, fallback,
                          systemPrompt, catalog, tokens, contextBudget; run:
                          one event a line, schema v1, see the README)

Options of run:
${SESSION_OPTIONS_HELP}

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  listed, shown or printed; run: the agent finished its task
  1  the agent cannot be loaded (an AGENT_* or MODEL_* code says why); run:
     the agent failed (the reason is printed)
  2  usage error
  3  run: refused by the policy, or a call needed an approval no one could give
  4  run: a limit was reached (steps, output tokens, time, context_budget;
     a command-line agent's most turns, --max-steps)
  130  run: interrupted (Ctrl-C, or quit at a prompt); --resume ID continues`,
    load: async () => import('./commands/agent.js'),
  },
  {
    name: 'chat',
    summary: 'Talk with an agent, turn after turn, at a terminal',
    help: `Usage: skillhost chat [options] NAME

Run agent NAME (see skillhost agent) interactively: each line you type is a
turn of the same loop as skillhost agent run, with the same tools, policy,
approvals and audit log. The answer streams as it comes; each tool call is one
line (▸ skillhost_read csv-summary assets/sample.csv … ok 1.2 KB); a call
that needs approval asks inline (yes once, always for this session, no with a
reason, view the input, quit); after each turn a footer gives the steps, the
tokens, the prompt-cache hits and the cost when the model's price is known.

Chat commands:
  /help        list the commands
  /skills      the preloaded skills, those active in the session, the catalog
  /model [ID]  show the model, or switch to another of the provider
  /compact     compact the conversation now: a summary of the earlier turns,
               the skills as their files hold them, the recent turns as they were
  /exit        leave (also Ctrl-D)
  /SKILL TASK  activate a skill of the catalog (as you, the user) for TASK
Ctrl-C interrupts the turn; a second Ctrl-C, or one at the prompt, leaves.

The session is kept as agent run's is (skillhost sessions list|show) and
--resume ID continues it: history, active skills, approvals for the session.

Options:
  --agents DIR            A folder of agents (repeatable; searched first)
  --model MODEL           Override the model (alias or model id)
  --provider PROVIDER     anthropic, openai, openai-compatible, or claude,
                          gemini, cursor, acp (see skillhost agent --help)
${SESSION_OPTIONS_HELP}

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  left with /exit or Ctrl-D
  1  the agent cannot be loaded (an AGENT_* or MODEL_* code says why)
  2  usage error (no terminal: use skillhost agent run NAME TASK)
  130  left with Ctrl-C`,
    load: async () => import('./commands/chat.js'),
  },
  {
    name: 'tools',
    summary: 'Show the tool definitions a model would receive',
    help: `Usage: skillhost tools [options]

The model-facing tools of the runtime, as JSON Schema: skillhost_activate
(the catalog's names as an enum while none is hidden by the budget),
skillhost_read, skillhost_run and skillhost_search. No usable skill: no tools.
A tool the host lacks (--tools, which names them activate_skill,
read_skill_resource, run_skill_script and search_skills) is never offered.
The former tool names still answer a call, deprecated.

With --workspace DIR, also the host tools an agent run or a chat gets over
that workspace (the agent format's devices: /dev/fs and /dev/shell):
  workspace_read   a text file, with line numbers (read; allowed)
  workspace_list   a folder's entries (glob, as LS; allowed)
  workspace_glob   files matching a glob (glob; allowed)
  workspace_grep   lines holding a text or matching a regex (grep; allowed)
  workspace_write  create or replace a file (write; asked; writable only)
  workspace_edit   replace an exact text in a file (edit; asked; writable only)
  workspace_bash   a bash command in the sandbox, no network (bash; asked)
Paths stay in the workspace (no .., no link out of it); files that commonly
hold secrets are hidden; protected paths are never written. A trusted active
skill's allowed-tools (Read(src/**), Bash(git:*), /dev/fs) pre-approves within
--tools; an untrusted skill's never does; --deny rules bind every command.

Options:
  --json                  Print the definitions as JSON
  --workspace DIR         List the host tools over this workspace too
  --workspace-writable    ... granted writable (adds write and edit)

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  printed
  2  usage error`,
    load: async () => import('./commands/tools.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve the skills as an MCP server (stdio or Streamable HTTP)',
    help: `Usage: skillhost mcp [--http PORT] [--host HOST] [--client NAME] [options]
       skillhost mcp config --client NAME [--scope user|project] [--write]
                            [--name NAME] [--project DIR] [-- SERVER-OPTIONS...]

Serve the skills over the Model Context Protocol: on stdin and stdout by
default, or over Streamable HTTP with --http. A client gets:
  tools          skillhost_activate, skillhost_read, skillhost_run and
                 skillhost_search, as the runtime offers them, annotated
                 (read-only but for skillhost_run); skillhost_activate's
                 description carries a short catalog
  resources      each skill's files, as skill://NAME/PATH, read within the
                 same bounds as skillhost read
  prompts        one per skill; getting it activates the skill for the user
  instructions   the catalog of usable skills, within --budget tokens
  skills         the MCP skills extension (skills/list, skills/get,
                 resources/directory/read)
The sources are watched, and clients are told when skills are added, changed
or removed. Watching, the server answers initialize with what it served the
last time it ran with the same folders, --client and --budget (the first time,
from the index cache as it was saved), so the instructions are those of the
last run until the client reconnects; once that answer is written it opens the
index, checks every skill file and tells clients what changed. Every
activation, read and script run goes through the policy and into the audit
log, as with the other commands.

Each client has a session of its own (stdio is one; over HTTP each
Mcp-Session-Id): its activations, its grants and its audit session id. A
skill's allowed-tools pre-approvals end when that client activates another
skill, after --grant-timeout seconds without a call, or with the session.

The server asks no one: nothing is confirmed at a terminal, so a script runs
only when the policy pre-approves it (a trusted skill's allowed-tools, e.g.
Bash(sh scripts/run.sh:*)) or it was approved "always" before (skillhost run),
and the model activates an untrusted skill only when its exact content was
approved "always" before (skillhost activate NAME --triggered-by model);
otherwise the call returns PERMISSION_REQUIRED.

Over stdio, only protocol messages are written to stdout; notes go to stderr.
Over HTTP the server listens at http://HOST:PORT/mcp (printed on stderr), on
127.0.0.1 unless --host says otherwise; the Host header must then be local. A
request with an Origin header (a web page's) is refused unless that origin was
given with --allow-origin, so no page the user visits can drive the server.
There is no authentication: bind another address only on a trusted network.

mcp config prints the settings that add this server to a client (claude,
codex, gemini, cursor or vscode) without turning its approvals off: the
server entry, and the client's own pre-approval of the read-only tools
(Claude Code's permission rules, Codex's approval_mode, a Gemini CLI policy
rule and, for a project, its folder trust). With --write it merges them into
the client's files, keeping every other entry, after showing the diff; a file
it cannot parse is left as it is (CLIENT_CONFIG_INVALID). The server command
is this installation: skillhost when that is on PATH, else the absolute paths
of node and of this bin. Options after -- are added to the server's command.

Options:
  --http PORT             Serve Streamable HTTP on PORT (0: any free port)
  --host HOST             The address to bind with --http (default 127.0.0.1)
  --allow-origin ORIGIN   Accept requests from this web origin, e.g.
                          http://localhost:6274 (repeatable; default none)
  --client NAME           Serve what that client does not have: leave out the
                          skill folders it serves itself (claude:
                          .claude/skills; codex: .agents/skills; gemini:
                          .agents/skills; cursor, vscode: see the README)
  --budget TOKENS         Most tokens of the catalog in the instructions
                          (default 8000); past it, skills are shortened, then
                          named only, then left to skillhost_search
  --grant-timeout SECONDS
                          A skill's pre-approvals end after this long without
                          a call from its client (default 900)
  --no-watch              Do not watch the sources for changes

mcp config options:
  --client NAME           claude, codex, gemini, cursor or vscode
  --scope user|project    The user's settings (default) or the project's
  --write                 Merge into the client's files (the diff is shown)
  --name NAME             The server's name in the client (default skillhost)
  --project DIR           The project of --scope project (default .)

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  the client closed the connection (stdio), or the server was stopped
     (SIGINT or SIGTERM); mcp config: printed or written
  1  the server could not start: the port is taken or not allowed, or the
     audit log cannot be opened; mcp config: a client's file cannot be parsed
     (nothing was written)
  2  usage error`,
    load: async () => import('./commands/mcp.js'),
  },
  {
    name: 'sessions',
    summary: 'List the agent sessions, or show one',
    help: `Usage: skillhost sessions list [--json]
       skillhost sessions show ID [--json]

Every skillhost agent run is a session with an id, kept as a JSON Lines file
in $SKILLHOST_HOME/sessions (readable only by you): a header line (agent,
provider, model), then each message of the history, each event of the runs
(as agent run --json prints them, without the text deltas), the approvals
given for the session and the skills active at the end. Continue one with
skillhost agent run NAME --resume ID.

  list   every session, newest first: id, time, agent, model, how it ended
  show   one session's conversation, tool calls and results, and its end

Options:
  --json       Print JSON
  -h, --help   Show this help

Exit codes:
  0  listed or shown
  1  no such session (SESSION_NOT_FOUND), or its file cannot be read
     (SESSION_INVALID)
  2  usage error`,
    load: async () => import('./commands/sessions.js'),
  },
  {
    name: 'ui',
    summary: 'Inspect skills, the catalog, sessions and the audit trail in a browser',
    help: `Usage: skillhost ui [--port P] [--open] [options]

A read-only inspector in your browser, served on 127.0.0.1 only:
  Skills     every source with its trust; every skill with its status (active,
             shadowed, skipped, untrusted, disabled, modified against
             skills-lock.json) and diagnostics; a skill's frontmatter, body,
             files, and what its allowed-tools requests and the policy grants
  Catalog    what a model sees under a budget and a format: the tokens each
             skill takes, and why each was shortened or hidden
  Sessions   each agent session as a timeline (turns, model requests with
             tokens and cache hits, tool calls and their decisions, skill
             activations and demotions, compactions) and a chart of the
             context per request against the window and the threshold; an
             open session updates as it runs
  Audit      a session's records in order, the chain's verification and its
             first broken link
It prints an address with a random token: every request without it is refused,
as are requests naming another host or coming from another origin. Pages show
the files as they are when loaded; nothing can be changed from the browser.

Options:
  --port P                Port to listen on (default: any free port)
  --open                  Open the address in the default browser
  --skills DIR, --project DIR, --no-default-sources, --trust
                          Which skills (as for skillhost list)
  --agents DIR            Where the sessions' agents are (as for agent run)
  --tools LIST, --deny RULE, --narrow, --shadow
                          The policy a skill page explains (as for
                          skillhost policy explain)
  --audit-log FILE        The audit log (default $SKILLHOST_HOME/audit.jsonl)
  -h, --help              Show this help

Exit codes:
  0  stopped with Ctrl-C
  1  the port could not be used
  2  usage error`,
    load: async () => import('./commands/ui.js'),
  },
  {
    name: 'approve',
    summary: 'Approve a skill script ahead, for its exact content, without running it',
    help: `Usage: skillhost approve [options] NAME SCRIPT [--allow-net]

Check SCRIPT of the skill NAME as a run would (under scripts/, a regular UTF-8
file, an allowed interpreter) and store an approval for its exact content, as
answering "always" at the prompt does: it then runs without asking, until its
content changes. With --allow-net, its runs with the network are approved too.
Stored in $SKILLHOST_HOME/config.json and recorded in the audit log;
skillhost approvals list and revoke manage what is stored.

Options:
  --allow-net             Approve its runs with the network (skillhost run
                          --allow-net)
  --json                  Print the approval as JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  approved
  1  no such skill, or it cannot be used
  2  usage error
  3  refused: the script checks, or the audit log cannot be written`,
    load: async () => import('./commands/approve.js'),
  },
  {
    name: 'sandbox',
    summary: 'Explain what a skill script would see in the sandbox, without running it',
    help: `Usage: skillhost sandbox explain [options] NAME SCRIPT

Print what SCRIPT of the skill NAME would see if skillhost run ran it now, read
from the runner's own plan (nothing runs, nobody is asked): the interpreter,
the working directory, every mount in order (ro, rw, tmpfs, hidden: a secret
file covered by an unreadable placeholder), the environment, the limits, how
memory is limited here and why, and, for a skill that declares dependencies,
whether the environment skillhost setup made for it is used.

Options:
  --workspace DIR, --no-workspace, --workspace-writable, --expose PATH,
  --out DIR, --memory SIZE, --allow-net
                          As for skillhost run
  --json                  Print JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Exit codes:
  0  explained
  1  no such skill, or it cannot be used
  2  usage error
  3  refused: the script checks, the workspace, or no sandbox`,
    load: async () => import('./commands/sandbox.js'),
  },
  {
    name: 'setup',
    summary: "Install a skill's declared dependencies into an environment its scripts use",
    help: `Usage: skillhost setup [options] NAME

Prepare the packages the skill NAME declares in scripts/requirements.txt
(Python) or scripts/package.json (Node), once, for its exact content: an
environment in $SKILLHOST_HOME/envs/SHA256 (the SHA-256 of the skill's whole
content), which skillhost run (and every other way a script runs: MCP, the
adapters, agents) then binds read-only: Python scripts run with its python and
packages, Node scripts find its packages at the skill's scripts/node_modules.
A skill that changes needs setup again; until then its runs go without the
environment and say so.

The installers are yours (python3 -m venv and pip, npm ci with a lockfile or
else npm install, from PATH) and run outside the sandbox, as you, in a copy of
the skill (its regular files; no links, no .npmrc or pip.conf). Before
anything runs, setup shows what the skill declares and the exact commands, and
asks (--yes to approve without asking; without a terminal it is refused unless
--yes). Packages never run their own code at install: pip installs wheels
only (--only-binary :all:) and npm runs with --ignore-scripts; a declaration
that would need it (an editable, source or version-control requirement,
--no-binary, a git dependency) is refused unless --allow-scripts. The plan and
each command's outcome go to the audit log.

Options:
  --yes                   Approve the commands shown without asking
  --find-links DIR        pip: install from this folder of wheels (no index unless
                          --index-url is given too)
  --index-url URL         pip: the package index (a mirror, or a local one)
  --registry URL          npm: the registry (a mirror, or a local one)
  --offline               No network: pip with no index, npm from its cache
  --allow-scripts         Let packages run their build and install scripts (pip
                          source builds, npm scripts), on this machine, outside
                          the sandbox
  --force                 Make the environment again even if it is ready
  --timeout SECONDS       Limit for each command (default 600)
  --json                  Print the plan and each command's outcome as JSON

${RUNTIME_OPTIONS_HELP}
  -h, --help              Show this help

Output: the plan (skill, environment, packages, commands), the installers'
output on stderr, then where the environment is. --json prints the plan and
the commands' outcomes as JSON.

Exit codes:
  0  ready (or nothing to set up: the skill declares no dependencies)
  1  no such skill, it cannot be used, an installer is missing, or a command
     failed (nothing of the environment is kept)
  2  usage error
  3  refused: by you, for want of a terminal without --yes, or a declaration
     that would run package code without --allow-scripts`,
    load: async () => import('./commands/setup.js'),
  },
  {
    name: 'approvals',
    summary: 'List or revoke the stored approvals',
    help: `Usage: skillhost approvals list [--json]
       skillhost approvals revoke NAME [SCRIPT]

The approvals stored in $SKILLHOST_HOME/config.json: "always" answers and
skillhost approve, each bound to a source, a skill, a script (or the skill's
activation) and the SHA-256 of its content.

  list     One line each: the skill, the script (or activation), the hash
  revoke   Remove the approvals of the skill NAME (or only of its SCRIPT)

Options:
  --json       With list, print JSON
  -h, --help   Show this help

Exit codes:
  0  done
  2  usage error`,
    load: async () => import('./commands/approvals.js'),
  },
  {
    name: 'trust',

    summary: 'Trust a project folder, so that its project skills load',
    help: `Usage: skillhost trust [DIR]
       skillhost trust --revoke [DIR]
       skillhost trust --skill NAME [--revoke]
       skillhost trust --list [--json]

Record in the user config ($SKILLHOST_HOME/config.json, default
~/.skillhost/config.json) that the project folder DIR is trusted (default: the
project the current folder belongs to, as skillhost list finds it). Project
skills (.agents/skills, .skillhost/skills, .claude/skills, .github/skills,
.gemini/skills) load only from trusted folders and their sub-folders. The real
path is recorded, so a link cannot stand in for the folder.

With --skill NAME, trust a skill installed from a git repository or an
archive (skillhost add), which is untrusted wherever it is installed: as
skills-lock.json records its files. An update asks again.

Options:
  --skill NAME  Trust the installed skill NAME instead of a folder
  --revoke      Stop trusting DIR (or the skill)
  --list        Print the trusted folders and skills
  --json        Print JSON: the folders and skills, or {"folder", "trusted",
                "changed"}
  -h, --help    Show this help

Exit codes:
  0  done
  1  --skill: NAME is not installed (SKILL_NOT_INSTALLED), or its files
     differ from skills-lock.json (SKILL_MODIFIED)
  2  usage error, or DIR is not a directory`,
    load: async () => import('./commands/trust.js'),
  },
  {
    name: 'add',
    summary: 'Install skills from a folder, a git repository or an archive',
    help: `Usage: skillhost add [options] SOURCE

Find the skills in SOURCE, validate them strictly, show each one (name,
description, scripts, allowed-tools and what the policy would make of them),
ask, then copy them into the project's .agents/skills (the default inside a
project: a folder with .git, .agents or skills-lock.json) or ~/.agents/skills
(--user), and record them in skills-lock.json (at the project's root, or in
$SKILLHOST_HOME for your own skills) with the commit or digest and the SHA-256
of every file. A skill with errors is refused; warnings are shown.

SOURCE is one of:
  ./folder, /path/to/folder        a local folder
  OWNER/REPO                       a GitHub repository (https://github.com/...)
  https://host/repo.git, ssh://..., git@host:repo.git, file:///...
                                   a git repository
  archive.tar.gz, archive.tgz, archive.zip, or an https:// URL of one
Git sources take #REF (branch, tag or full commit), #REF:SUBPATH or #:SUBPATH
(OWNER/REPO:SUBPATH too): only SUBPATH is searched. Archives take #:SUBPATH;
an archive holding one top folder has it as its root.

Git runs with hooks off, no credential helper or prompt, neither your nor the
system's git configuration, no submodules (unless --submodules), shallow at
the resolved commit. Archives are refused as a whole for absolute paths, ..,
links leaving the archive, devices, duplicate entries, more than 10,000
entries, more than 100 MiB unpacked or a compression ratio over 100. Only the
skill folders are copied (links leading out of a skill are left out and
named); they are staged beside the skills folder and moved into place; nothing
of a refused source is left. A skill from a git repository or an archive is
external: a model's first activation of it asks you, as for an untrusted
skill, until you trust it (skillhost trust --skill NAME). Every install is a
record in the audit log.

Options:
  --skill NAME          Install only this skill of the source (repeatable)
  --project             Install into the project (the folder skillhost list
                        names: the nearest one above with .git, .agents, ...)
  --user                Install into ~/.agents/skills
  --yes                 Do not ask (needed without a terminal, and with --json)
  --force               Replace a folder of the same name
  --submodules          Also fetch the repository's submodules
  --json                Print what was found and done as JSON
  --audit-log PATH      The audit log (default: $SKILLHOST_HOME/audit.jsonl)
  -h, --help            Show this help

Exit codes:
  0  installed
  1  a skill could not be installed (errors, a folder of that name exists),
     or the source could not be fetched or holds no skill
  2  usage error
  3  not confirmed (no terminal without --yes, or you said no)`,
    load: async () => import('./commands/add.js'),
  },
  {
    name: 'install',
    summary: 'Install exactly the skills skills-lock.json records',
    help: `Usage: skillhost install [--frozen] [--project | --user] [--json]

Make the installed skills exactly what skills-lock.json records: a missing
skill folder is fetched from its recorded source at the recorded commit (or
archive digest) and put in place only if every file has the recorded SHA-256;
a folder whose files differ is put back as recorded. For teammates and CI
after a clone. Works on the project's lockfile (inside a project) or, with
--user, on $SKILLHOST_HOME/skills-lock.json. Every skill installed is a
record in the audit log.

Options:
  --frozen            Fail on any difference: a modified folder is reported,
                      never replaced, and an invalid entry fails the run
  --project           The project's lockfile (the default inside a project)
  --user              $SKILLHOST_HOME/skills-lock.json and ~/.agents/skills
  --json              Print each skill's outcome as JSON
  --audit-log PATH    The audit log (default: $SKILLHOST_HOME/audit.jsonl)
  -h, --help          Show this help

Exit codes:
  0  every skill is as recorded
  1  a skill could not be reproduced: its source changed (LOCKFILE_MISMATCH),
     cannot be fetched, or (--frozen) its folder was modified (SKILL_MODIFIED);
     or the lockfile is missing or invalid
  2  usage error`,
    load: async () => import('./commands/install.js'),
  },
  {
    name: 'update',
    summary: 'Update installed skills from their sources, showing what changed',
    help: `Usage: skillhost update [options] [NAME...]

Fetch each installed skill's source again (its branch or tag, or the default
branch; the archive URL; the folder), and for a skill that changed show what
changed: the SKILL.md diff, scripts added, changed or removed, allowed-tools
entries added or removed, other files, and what the policy would make of the
new version. Ask, then replace the folder and record the new commit or digest
and hashes in skills-lock.json. A changed script needs your approval again
(approvals are bound to its content), and trust given with skillhost trust
--skill applies to the version trusted: the new one asks again. A new version
with errors is refused. A source pinned to a full commit is left alone.
Without NAME, every skill of the lockfile.

Options:
  --project           The project's skills (the default inside a project)
  --user              Your skills (~/.agents/skills)
  --yes               Do not ask (needed without a terminal, and with --json)
  --json              Print each skill's changes and outcome as JSON
  --audit-log PATH    The audit log (default: $SKILLHOST_HOME/audit.jsonl)
  -h, --help          Show this help

Exit codes:
  0  up to date, or updated
  1  a source could not be fetched, or a new version has errors; or NAME is
     not installed (SKILL_NOT_INSTALLED)
  2  usage error
  3  an update was not confirmed (no terminal without --yes, or you said no)`,
    load: async () => import('./commands/update.js'),
  },
  {
    name: 'remove',
    summary: 'Remove an installed skill and its lockfile entry',
    help: `Usage: skillhost remove [options] NAME

Delete the folder of the skill NAME that skillhost add installed, its entry in
skills-lock.json and any trust you gave it (skillhost trust --skill). The
project's lockfile is looked in first, then yours. A skill whose files you
changed is kept unless --force. Recorded in the audit log.

Options:
  --project           Only the project's skills
  --user              Only your skills (~/.agents/skills)
  --force             Remove it even though its files were changed
  --json              Print what was removed as JSON
  --audit-log PATH    The audit log (default: $SKILLHOST_HOME/audit.jsonl)
  -h, --help          Show this help

Exit codes:
  0  removed
  1  not installed by skillhost (SKILL_NOT_INSTALLED), or changed and no
     --force (SKILL_MODIFIED)
  2  usage error`,
    load: async () => import('./commands/remove.js'),
  },
  {
    name: 'enable',
    summary: 'Offer a disabled skill again',
    help: `Usage: skillhost enable NAME

Remove NAME from the skills you disabled (kept in $SKILLHOST_HOME/config.json):
it is listed and offered again like any other skill.

Options:
  --json       Print the result as JSON
  -h, --help   Show this help

Exit codes:
  0  done (also when it was not disabled)
  2  usage error`,
    load: async () => import('./commands/enable.js'),
  },
  {
    name: 'disable',
    summary: 'Never offer a skill, whichever source has it',
    help: `Usage: skillhost disable NAME

Switch the skill NAME off (kept in $SKILLHOST_HOME/config.json): every copy of
it, in every source, is listed as disabled and never offered: not in the
catalog, the tools, the router or MCP, and it cannot be activated.
skillhost enable NAME switches it back on.

Options:
  --json       Print the result as JSON
  -h, --help   Show this help

Exit codes:
  0  done (also when it was disabled already)
  2  usage error`,
    load: async () => import('./commands/disable.js'),
  },
  {
    name: 'init',
    summary: 'Create a new skill that passes strict validation',
    help: `Usage: skillhost init [options] NAME

Create the folder NAME with a SKILL.md (name, a description to rewrite, and a
short guide to writing the skill in its body), scripts/example.sh,
references/REFERENCE.md and assets/, in the project's .agents/skills (or DIR).
NAME must be lower-case letters, digits and single hyphens. The new skill is
validated strictly before the command returns.

Options:
  --dir DIR             Create it in DIR instead of .agents/skills
  --description TEXT    Its description (default: a sentence to rewrite)
  --json                Print the result as JSON
  -h, --help            Show this help

Exit codes:
  0  created, and valid
  1  a folder NAME exists there already (SKILL_EXISTS), or it is not valid
  2  usage error`,
    load: async () => import('./commands/init.js'),
  },
  {
    name: 'doctor',
    summary: 'Check the machine, sources, files, keys and MCP clients, with fixes',
    help: `Usage: skillhost doctor [options]

Check what skillhost depends on and explain each finding with a fix:
  - Node.js (20.19 or later), bubblewrap (the script sandbox), prlimit (the
    limits tool) and git (for skillhost add)
  - the skill sources searched (the same ones every command uses), what each
    holds, and what discovery ran into
  - whether the project folder is trusted
  - the permissions of $SKILLHOST_HOME, config.json and keys.json
  - the index cache
  - the audit log's hash chains (as skillhost audit verify)
  - installed skills against skills-lock.json: missing, modified, external
  - the model providers configured: whether a key is present (never shown)
  - MCP client configurations that mention skillhost (Claude Code, Claude
    Desktop, Codex, Gemini CLI, Cursor, VS Code), and commands that would not
    run it (such as npx skillhost: the package is not published)

${SOURCE_OPTIONS_HELP}
  --audit-log PATH        The audit log to verify
  -h, --help              Show this help

Exit codes:
  0  nothing failed (warnings and notes allowed)
  1  a check failed
  2  usage error`,
    load: async () => import('./commands/doctor.js'),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script (bash, zsh or fish)',
    help: `Usage: skillhost completion bash|zsh|fish

Print a completion script for the shell, made from the commands and options
this version's help lists. For example:
  bash   skillhost completion bash > ~/.local/share/bash-completion/completions/skillhost
  zsh    skillhost completion zsh > "\${fpath[1]}/_skillhost"
  fish   skillhost completion fish > ~/.config/fish/completions/skillhost.fish

Options:
  -h, --help   Show this help

Exit codes:
  0  printed
  2  usage error, or an unknown shell`,
    load: async () => import('./commands/completion.js'),
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}
