// The help of the commands for agents, sessions and the servers (`skillhost COMMAND --help`).
import { RUNTIME_OPTIONS_HELP, SESSION_OPTIONS_HELP } from '../source-help.js';

export const AGENT_HELP = `Usage: skillhost agent run [options] NAME [TASK]
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
  130  run: interrupted (Ctrl-C, or quit at a prompt); --resume ID continues`;

export const CHAT_HELP = `Usage: skillhost chat [options] NAME

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
  130  left with Ctrl-C`;

export const TOOLS_HELP = `Usage: skillhost tools [options]

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
  2  usage error`;

export const MCP_HELP = `Usage: skillhost mcp [--http PORT] [--host HOST] [--client NAME] [options]
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
  2  usage error`;

export const SESSIONS_HELP = `Usage: skillhost sessions list [--json]
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
  2  usage error`;

export const UI_HELP = `Usage: skillhost ui [--port P] [--open] [options]

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
  2  usage error`;
