// The help of the commands for installing and managing skills, and the set-up commands (`skillhost COMMAND --help`).
import { SOURCE_OPTIONS_HELP } from '../source-help.js';

export const TRUST_HELP = `Usage: skillhost trust [DIR]
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
  2  usage error, or DIR is not a directory`;

export const ADD_HELP = `Usage: skillhost add [options] SOURCE

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
  3  not confirmed (no terminal without --yes, or you said no)`;

export const INSTALL_HELP = `Usage: skillhost install [--frozen] [--project | --user] [--json]

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
  2  usage error`;

export const UPDATE_HELP = `Usage: skillhost update [options] [NAME...]

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
  3  an update was not confirmed (no terminal without --yes, or you said no)`;

export const REMOVE_HELP = `Usage: skillhost remove [options] NAME

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
  2  usage error`;

export const ENABLE_HELP = `Usage: skillhost enable NAME

Remove NAME from the skills you disabled (kept in $SKILLHOST_HOME/config.json):
it is listed and offered again like any other skill.

Options:
  --json       Print the result as JSON
  -h, --help   Show this help

Exit codes:
  0  done (also when it was not disabled)
  2  usage error`;

export const DISABLE_HELP = `Usage: skillhost disable NAME

Switch the skill NAME off (kept in $SKILLHOST_HOME/config.json): every copy of
it, in every source, is listed as disabled and never offered: not in the
catalog, the tools, the router or MCP, and it cannot be activated.
skillhost enable NAME switches it back on.

Options:
  --json       Print the result as JSON
  -h, --help   Show this help

Exit codes:
  0  done (also when it was disabled already)
  2  usage error`;

export const INIT_HELP = `Usage: skillhost init [options] NAME

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
  2  usage error`;

export const DOCTOR_HELP = `Usage: skillhost doctor [options]

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
  2  usage error`;

export const COMPLETION_HELP = `Usage: skillhost completion bash|zsh|fish

Print a completion script for the shell, made from the commands and options
this version's help lists. For example:
  bash   skillhost completion bash > ~/.local/share/bash-completion/completions/skillhost
  zsh    skillhost completion zsh > "\${fpath[1]}/_skillhost"
  fish   skillhost completion fish > ~/.config/fish/completions/skillhost.fish

Options:
  -h, --help   Show this help

Exit codes:
  0  printed
  2  usage error, or an unknown shell`;
