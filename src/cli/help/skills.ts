// The help of the commands for finding, checking and showing skills (`skillhost COMMAND --help`).
import { RUNTIME_OPTIONS_HELP, SOURCE_OPTIONS_HELP } from '../source-help.js';

export const VALIDATE_HELP = `Usage: skillhost validate [options] PATH...

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

A folder of 4,000 skill folders or more is read on two threads (from 20,000,
checked on two), with the same output. SKILLHOST_THREADS=1 keeps to one thread;
SKILLHOST_THREADS=2 uses the second for a folder of any size (any other value:
the default).

Exit codes:
  0  every skill is valid (warnings allowed)
  1  at least one skill is invalid, or a PATH holds no skill
  2  usage error, or a PATH that does not exist or cannot be read`;

export const READ_PROPERTIES_HELP = `Usage: skillhost read-properties PATH

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
  2  usage error, or PATH does not exist`;

export const TO_PROMPT_HELP = `Usage: skillhost to-prompt PATH...

Print the <available_skills> XML block that lists each skill's name, description
and SKILL.md location, byte for byte as the reference validator's to-prompt.
Each PATH is a skill directory, its SKILL.md, or a folder holding skills (its
skills are listed in sorted order; those that cannot be read are skipped with a
message on stderr). A folder of 4,000 skill folders or more is read on two
threads, as validate does (SKILLHOST_THREADS=1 keeps to one).

Options:
  -h, --help   Show this help

Exit codes:
  0  printed
  1  a skill given directly cannot be read
  2  usage error, or a PATH does not exist`;

export const LIST_HELP = `Usage: skillhost list [options]

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
  2  usage error, or the user config cannot be read`;

export const CATALOG_HELP = `Usage: skillhost catalog [options]

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
  2  usage error`;

export const ACTIVATE_HELP = `Usage: skillhost activate [options] NAME

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
     policy (PERMISSION_DENIED)`;

export const ROUTE_HELP = `Usage: skillhost route [options] "TASK"

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
  2  usage error`;

export const READ_HELP = `Usage: skillhost read [options] NAME PATH

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
  2  usage error`;
