// The help of the commands for running skills' scripts, the policy and the audit trail (`skillhost COMMAND --help`).
import { RUNTIME_OPTIONS_HELP } from '../source-help.js';

export const RUN_HELP = `Usage: skillhost run [options] NAME SCRIPT [-- ARGS...]

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
     be written`;

export const POLICY_HELP = `Usage: skillhost policy explain [options] NAME
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
  2  usage error`;

export const AUDIT_HELP = `Usage: skillhost audit show|tail|verify [options]
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
  2  usage error`;

export const APPROVE_HELP = `Usage: skillhost approve [options] NAME SCRIPT [--allow-net]

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
  3  refused: the script checks, or the audit log cannot be written`;

export const SANDBOX_HELP = `Usage: skillhost sandbox explain [options] NAME SCRIPT

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
  3  refused: the script checks, the workspace, or no sandbox`;

export const SETUP_HELP = `Usage: skillhost setup [options] NAME

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
     that would run package code without --allow-scripts`;

export const APPROVALS_HELP = `Usage: skillhost approvals list [--json]
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
  2  usage error`;
