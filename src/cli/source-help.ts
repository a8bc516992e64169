/** Help text for the options every registry command takes (kept apart so --help loads no library code). */
export const SOURCE_OPTIONS_HELP = `Skill sources (every registry command):
  --project DIR           The project folder (default: the nearest folder at or
                          above the current one holding .git, .agents, .skillhost
                          or .claude, below the home folder; else the current
                          one); its .agents/skills, .skillhost/skills,
                          .claude/skills, .github/skills and .gemini/skills are
                          used once the folder is trusted (skillhost trust)
  --trust                 Trust the project folder for this run only
  --skills DIR            A folder of skills you trust (repeatable)
  --untrusted-skills DIR  A folder of untrusted skills (repeatable)
  --no-default-sources    Use only the folders given with --skills and
                          --untrusted-skills (no project or user folders)
  --follow-symlinks       Follow linked skill directories (never into a loop)
  --cache-dir DIR         Where the index cache lives (default: $SKILLHOST_HOME/cache,
                          SKILLHOST_HOME defaulting to ~/.skillhost)
  --no-cache              Neither read nor write the index cache

Your own skills are found in ~/.agents/skills, ~/.skillhost/skills,
~/.claude/skills, ~/.copilot/skills, ~/.gemini/skills and ~/.codex/skills.
skillhost list --sources shows every folder; "disabledSources" in
$SKILLHOST_HOME/config.json switches folders off by their ID. A folder of
4,000 skill folders or more read without an index is read on two threads, with
the same result (SKILLHOST_THREADS=1 keeps to one).`;

/** Help text for the options of commands that use capabilities. */
export const RUNTIME_OPTIONS_HELP = `${SOURCE_OPTIONS_HELP}

Audit and policy (the CLI acting as the host):
  --audit-log PATH        The audit log (default: $SKILLHOST_HOME/audit.jsonl)
  --tools LIST            The host's tools, comma-separated (default: all of read,
                          write, edit, glob, grep, bash, web_fetch, web_search,
                          notebook_edit, task, todo, activate_skill,
                          read_skill_resource, run_skill_script,
                          search_skills)
  --deny ENTRY            Always deny this (allowed-tools syntax; repeatable)
  --narrow                While a skill with allowed-tools is active, only its
                          tools may be used
  --shadow                Record decisions without enforcing them`;

/** The options of an agent session: agent run and chat. */
export const SESSION_OPTIONS_HELP = `  --base-url URL          The provider's server (a proxy or a local server)
  --max-steps N           Most model requests of a turn (default 50; claude:
                          its --max-turns)
  --max-output-tokens N   Most output tokens of a turn, all requests together
  --timeout SECONDS       Most wall time of a turn
  --catalog-budget N      Most tokens the catalog of the agent's skills may take:
                          the least used are shortened or hidden (still found by
                          search); the session log records what was shown
  --context-window N      The model's context window in tokens: the conversation
                          is compacted before a request would pass 80% of it
                          minus the output reserve (default: the model table;
                          32,768 for a model it does not know)
  --compact-model M       The model that writes the compaction summaries (an
                          alias or id of the same provider; default: the
                          session's model)
  --workspace DIR         The workspace: the folder the host tools reach and
                          commands and scripts run in (default: the project
                          folder), read-only unless --workspace-writable
  --workspace-writable    Let the agent write to it (workspace_write and
                          workspace_edit, asked; protected paths stay read-only)
  --no-workspace          No workspace: no host tools, scripts run in /work
  --expose PATH           Show a file that commonly holds secrets (.env, a key)
                          to the host tools and the sandbox (repeatable)
  --protect PATH          Keep this path of a writable workspace read-only too
                          (repeatable)
  --yes                   Approve every call that asks, once each
  --allow ENTRY           Approve the calls ENTRY covers (allowed-tools syntax,
                          e.g. run_skill_script, "Bash(git status:*)",
                          "Write(docs/**)"; repeatable)
  --resume ID             Continue session ID: its history, active skills and
                          the approvals given for the session (a command-line
                          agent: its own session, --resume=ID for claude,
                          session/load over ACP)
  --acp-command "CMD ARGS"
                          The ACP agent to run with --provider acp (one plain
                          command: a program and its arguments)
  --cursor-print          With --provider cursor: Cursor's print mode instead of
                          its ACP mode. That mode cannot ask for approval, so it
                          is refused unless --yes approves every call; Cursor's
                          own tools then run as the settings skillhost writes
                          from the policy allow (never --force)`;
