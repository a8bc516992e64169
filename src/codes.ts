/**
 * The one catalogue of codes used by diagnostics and errors. Every code has a one-line summary
 * (what went wrong) and a hint (how to fix it). Codes are stable: renaming one is a breaking change.
 */

export type CodeCategory =
  | 'path'
  | 'file'
  | 'encoding'
  | 'structure'
  | 'yaml'
  | 'field'
  | 'body'
  | 'portability'
  | 'usage'
  | 'runtime'
  | 'install';

export interface CodeInfo {
  readonly category: CodeCategory;
  readonly summary: string;
  readonly hint: string;
}

function code(category: CodeCategory, summary: string, hint: string): CodeInfo {
  return { category, summary, hint };
}

export const CODES = {
  // Paths and trees
  PATH_NOT_FOUND: code(
    'path',
    'The path does not exist.',
    'Check the spelling and that the path exists.',
  ),
  PATH_UNREADABLE: code(
    'path',
    'The path exists but cannot be read.',
    'Check its permissions, or that it is a directory or a SKILL.md file.',
  ),
  NO_SKILLS_FOUND: code(
    'path',
    'No SKILL.md was found under the path.',
    'Point at a skill directory, its SKILL.md, or a folder that holds skill directories.',
  ),
  WALK_DEPTH_LIMIT: code(
    'path',
    'A directory was not searched because it is deeper than the depth limit.',
    'Point at a folder closer to the skills, or raise the depth limit.',
  ),
  WALK_DIRECTORY_LIMIT: code(
    'path',
    'The search stopped because it reached the directory limit.',
    'Point at a smaller folder, or raise the directory limit.',
  ),
  WALK_SKILL_LIMIT: code(
    'path',
    'The search of a source stopped because it found as many skills as the limit allows.',
    'Split the skills over several sources, or raise the skill limit.',
  ),
  WALK_SYMLINK_LOOP: code(
    'path',
    'A symbolic link leads back into a directory already searched; it was skipped.',
    'Remove the looping link, or point at the real directory.',
  ),
  WALK_SYMLINK_SKIPPED: code(
    'path',
    'A symbolically linked directory was not followed.',
    'Enable following symbolic links, or point at the real directory.',
  ),
  WALK_UNREADABLE_DIRECTORY: code(
    'path',
    'A directory could not be listed and was skipped.',
    'Check its permissions.',
  ),

  // The SKILL.md file itself
  SKILL_FILE_MISSING: code(
    'file',
    'The directory has no SKILL.md.',
    'Create SKILL.md with a frontmatter block that has name and description.',
  ),
  SKILL_FILE_LOWERCASE: code(
    'portability',
    'The skill file is named skill.md; the specification names it SKILL.md.',
    'Rename skill.md to SKILL.md; some clients only look for the upper-case name.',
  ),
  SKILL_FILE_NOT_REGULAR: code(
    'file',
    'SKILL.md is not a regular file (a directory, FIFO, socket or device).',
    'Replace it with a regular text file.',
  ),
  SKILL_FILE_SYMLINK_ESCAPE: code(
    'file',
    'SKILL.md is a symbolic link to a file outside the skill directory; it was not read.',
    'Copy the file into the skill directory instead of linking to it.',
  ),
  SKILL_FILE_SYMLINK_BROKEN: code(
    'file',
    'SKILL.md is a symbolic link that leads nowhere (missing target or a loop).',
    'Fix or remove the link.',
  ),
  SKILL_FILE_TOO_LARGE: code(
    'file',
    'SKILL.md is larger than the size limit.',
    'Move details into references/ files and keep SKILL.md short.',
  ),
  SKILL_FILE_UNREADABLE: code('file', 'SKILL.md could not be read.', 'Check its permissions.'),

  SKILL_SHADOWED: code(
    'path',
    'Another skill with the same name takes precedence over this copy.',
    'Rename one of them, or address this copy as name@source.',
  ),
  SKILL_DUPLICATE: code(
    'path',
    'This copy is identical to the skill that takes precedence; the two were collapsed.',
    'Nothing to do, unless the copy is stale and can be removed.',
  ),
  NAME_CONFUSABLE: code(
    'portability',
    "The name looks like another skill's name (look-alike letters from another script).",
    'Rename the skill with ASCII letters so that it cannot be mistaken for the other.',
  ),

  // Encoding
  TEXT_NOT_UTF8: code(
    'encoding',
    'The file is not valid UTF-8 text.',
    'Save the file as UTF-8; binary files cannot be skills.',
  ),
  TEXT_NUL_BYTE: code(
    'encoding',
    'The file contains a NUL byte, so it is not text.',
    'Remove the NUL byte; binary files cannot be skills.',
  ),
  TEXT_BOM: code(
    'portability',
    'The file starts with a UTF-8 byte order mark; it was ignored.',
    'Save the file as UTF-8 without a BOM; some clients reject it.',
  ),

  // Structure
  FILE_EMPTY: code(
    'structure',
    'The file is empty.',
    'Start the file with a --- line, the frontmatter, and a closing --- line.',
  ),
  FRONTMATTER_MISSING: code(
    'structure',
    'The file does not start with a --- line.',
    'Make the very first line of SKILL.md exactly ---.',
  ),
  FRONTMATTER_UNCLOSED: code(
    'structure',
    'The frontmatter has no closing --- line.',
    'Add a line that is exactly --- after the last frontmatter field.',
  ),
  FRONTMATTER_TOO_LARGE: code(
    'structure',
    'The frontmatter is larger than the size limit.',
    'Keep the frontmatter to the few fields the specification defines.',
  ),
  FRONTMATTER_NOT_MAPPING: code(
    'structure',
    'The frontmatter is not a mapping of fields.',
    'Write the frontmatter as key: value lines, starting with name and description.',
  ),

  // YAML
  YAML_SYNTAX: code(
    'yaml',
    'The frontmatter is not valid YAML.',
    'Quote values that contain ": " or start with a special character, e.g. description: "a: b".',
  ),
  YAML_BLOCK_SCALAR_TEXT: code(
    'yaml',
    'Text follows a > or | block indicator on the same line; YAML allows none there (the most common YAML error in real skills).',
    'Put the text on the next lines, indented (description: > then "  Use when ..." below it), or write it as one quoted value on the line: description: "Use when ...".',
  ),
  YAML_QUOTED_CONTINUATION: code(
    'portability',
    'A quoted value continues on a line at column 0: PyYAML and the reference validator read it, YAML 1.2 parsers reject it.',
    'Indent the continuation lines of the quoted value (two spaces), or keep the value on one line.',
  ),
  YAML_DUPLICATE_KEY: code(
    'yaml',
    'A key appears twice in the same mapping.',
    'Keep one of the two entries.',
  ),
  YAML_ANCHOR_OR_ALIAS: code(
    'yaml',
    'YAML anchors (&) and aliases (*) are not allowed in frontmatter.',
    'Write the value out in full.',
  ),
  YAML_TAG: code(
    'yaml',
    'YAML tags (!, !!) are not allowed in frontmatter.',
    'Remove the tag; every value is read as text.',
  ),
  YAML_DIRECTIVE: code(
    'yaml',
    'YAML directives (%YAML, %TAG) are not allowed in frontmatter.',
    'Remove the directive line.',
  ),
  YAML_TOO_DEEP: code(
    'yaml',
    'The frontmatter nests deeper than the limit.',
    'Flatten the structure; the specification only needs one level under metadata.',
  ),
  YAML_COMPLEX_KEY: code(
    'yaml',
    'A mapping key is not a plain text value.',
    'Use plain text keys.',
  ),
  YAML_LIBRARY_MISSING: code(
    'yaml',
    'The frontmatter needs the YAML library (more than the fast scanner reads), and none was given.',
    'Pass the yaml package, or a function that loads it, as the yaml option; the skillhost and skillhost/node entries pass it for you.',
  ),
  YAML_FLOW_STYLE: code(
    'portability',
    'Flow-style YAML ([a, b] or {a: b}) is valid YAML but the reference validator rejects it.',
    'Write lists and maps in block style, one entry per line.',
  ),

  // Fields
  FIELD_UNKNOWN: code(
    'field',
    'The frontmatter has a field the specification does not define.',
    'Remove it, or move it under metadata.',
  ),
  FIELD_CLIENT_SPECIFIC: code(
    'portability',
    'The field is understood by some clients only; the specification does not define it.',
    'Move it under metadata, or accept that other clients ignore it.',
  ),
  NAME_MISSING: code(
    'field',
    'The required field name is missing.',
    'Add name: with the skill directory name, e.g. name: pdf-processing.',
  ),
  NAME_NOT_STRING: code(
    'field',
    'The field name is not a text value.',
    'Write name as one line of text, e.g. name: pdf-processing.',
  ),
  NAME_EMPTY: code('field', 'The field name is empty.', 'Set name to the skill directory name.'),
  NAME_TOO_LONG: code(
    'field',
    'The name is longer than 64 characters.',
    'Shorten the name (and the directory) to at most 64 characters.',
  ),
  NAME_NOT_LOWERCASE: code(
    'field',
    'The name has upper-case letters.',
    'Use lower-case letters, digits and hyphens only.',
  ),
  NAME_HYPHEN_EDGE: code(
    'field',
    'The name starts or ends with a hyphen.',
    'Remove the leading or trailing hyphen.',
  ),
  NAME_CONSECUTIVE_HYPHENS: code(
    'field',
    'The name has two hyphens in a row.',
    'Use single hyphens between words.',
  ),
  NAME_INVALID_CHARACTERS: code(
    'field',
    'The name has characters other than letters, digits and hyphens.',
    'Replace spaces, underscores and punctuation with hyphens.',
  ),
  NAME_DIRECTORY_MISMATCH: code(
    'field',
    "The name differs from the name of the skill directory; at runtime the skill is known by its directory's name.",
    'Rename the directory or change name so that they are equal.',
  ),
  DIRECTORY_NAME_INVALID: code(
    'field',
    "The skill directory's name cannot name a skill: it is empty, holds control or invisible characters or '@', or starts or ends with white space.",
    'Rename the directory with letters, digits and hyphens, as the name field should be.',
  ),
  NAME_NOT_ASCII: code(
    'portability',
    'The name passes the Unicode rule but not the a-z, 0-9 and - rule that some clients apply.',
    'Use ASCII lower-case letters, digits and hyphens for the widest support.',
  ),
  NAME_NOT_NORMALIZED: code(
    'portability',
    'The name changes when trimmed and NFKC-normalised.',
    'Write the name in its normalised form.',
  ),
  DESCRIPTION_MISSING: code(
    'field',
    'The required field description is missing.',
    'Add description: saying what the skill does and when to use it.',
  ),
  DESCRIPTION_NOT_STRING: code(
    'field',
    'The field description is not a text value.',
    'Write description as text; use > for a long, folded description.',
  ),
  DESCRIPTION_EMPTY: code(
    'field',
    'The field description is empty.',
    'Say what the skill does and when to use it.',
  ),
  DESCRIPTION_TOO_LONG: code(
    'field',
    'The description is longer than 1024 characters.',
    'Shorten it; move details into the body of SKILL.md.',
  ),
  DESCRIPTION_HIDDEN_UNICODE: code(
    'field',
    'The description holds invisible characters (tag characters, bidirectional controls, zero-width characters).',
    'Remove them: they can hide instructions from people while models still read them.',
  ),
  DESCRIPTION_KEYWORD_STUFFING: code(
    'field',
    'The description repeats one term to game matching: at least 4 times, and at least 30% of its terms (words of two or more letters or digits, stop words left out). The router counts each of its terms once.',
    'Say once what the skill does and when to use it; list related terms once each.',
  ),
  LICENSE_NOT_STRING: code(
    'field',
    'The field license is not a text value.',
    'Write an SPDX identifier or the name of a bundled licence file.',
  ),
  COMPATIBILITY_NOT_STRING: code(
    'field',
    'The field compatibility is not a text value.',
    'Write the environment requirements as one text value.',
  ),
  COMPATIBILITY_TOO_LONG: code(
    'field',
    'The compatibility text is longer than 500 characters.',
    'Shorten it to the essential requirements.',
  ),
  COMPATIBILITY_EMPTY: code(
    'field',
    'The field compatibility is empty.',
    'Remove the field or state the requirements.',
  ),
  METADATA_NOT_MAPPING: code(
    'field',
    'The field metadata is not a mapping.',
    'Write metadata as indented key: value lines.',
  ),
  METADATA_EMPTY: code(
    'field',
    'The field metadata has no value.',
    'Remove the empty metadata line, or add indented key: value lines below it.',
  ),
  METADATA_VALUE_NOT_STRING: code(
    'field',
    'A metadata value is not a text value.',
    'Quote the value or join the list into one string, e.g. tags: "a, b".',
  ),
  ALLOWED_TOOLS_NOT_STRING: code(
    'field',
    'The field allowed-tools is not one text value.',
    'Write the tools as one space-separated string, e.g. allowed-tools: Read Bash(git:*).',
  ),

  // Body
  BODY_CONTROL_CHARACTERS: code(
    'body',
    'The body holds control characters other than tab and line breaks (escape sequences can clear a terminal, write its clipboard or disguise text); loading removes them.',
    'Delete them; write a character such as ESC as text (\\x1b) inside a code block if the instructions need to mention it.',
  ),
  BODY_HIDDEN_UNICODE: code(
    'body',
    'The body holds invisible or bidirectional-control characters (tag characters, overrides and isolates, zero-width characters); they are removed before a model sees it.',
    'Remove them: they can hide instructions from people while models still read them. Emoji (a variation selector after a character, a joiner between two) are fine.',
  ),
  BODY_EMPTY: code(
    'body',
    'The body of SKILL.md is empty.',
    'Write the instructions the agent follows when the skill is active.',
  ),
  BODY_TOO_MANY_LINES: code(
    'portability',
    'The body is longer than 500 lines.',
    'Move detailed material into references/ and link to it.',
  ),
  BODY_TOO_MANY_TOKENS: code(
    'portability',
    'The body is longer than about 5000 tokens.',
    'Move detailed material into references/ and link to it.',
  ),
  LINK_BROKEN: code(
    'portability',
    'A relative link in the body points to a file that does not exist in the skill.',
    'Fix the path, or add the file to the skill.',
  ),
  LINK_OUTSIDE_SKILL: code(
    'portability',
    'A relative link in the body points outside the skill directory.',
    'Copy what it points to into the skill; files outside it are not shipped with the skill.',
  ),

  // allowed-tools
  ALLOWED_TOOLS_UNKNOWN: code(
    'field',
    'An allowed-tools entry names a tool or device skillhost does not know.',
    'Use a known tool name (Read, Write, Edit, Glob, Grep, Bash, WebFetch, WebSearch) or device (/dev/fs, /dev/shell, /dev/net).',
  ),
  ALLOWED_TOOLS_MALFORMED: code(
    'field',
    'An allowed-tools entry is not Tool, Tool(pattern) or a /dev/ device.',
    'Write entries like Read, Bash(git status:*) or /dev/fs, separated by spaces.',
  ),
  ALLOWED_TOOLS_TOO_BROAD: code(
    'portability',
    'An allowed-tools entry would allow every shell command; it will not pre-approve anything.',
    'Name the commands the skill needs, e.g. Bash(git status:*) Bash(python scripts/run.py:*).',
  ),
  ALLOWED_TOOLS_UNAVAILABLE: code(
    'field',
    'An allowed-tools entry names a tool the host does not have; it is dropped, never added.',
    'Remove the entry, or give the agent that tool yourself if the skill needs it.',
  ),

  // Permissions, scripts and the audit trail
  PERMISSION_DENIED: code(
    'runtime',
    'The policy denied the call.',
    'See the reason; skillhost policy explain NAME shows what a skill may do.',
  ),
  PERMISSION_REQUIRED: code(
    'runtime',
    'The call needs confirmation (a script run, or an untrusted skill the model or the router chose), and none could be asked for (not interactive).',
    'Run it interactively and answer yes, or always for this exact content; skillhost run also takes --yes for one run.',
  ),
  SCRIPT_NOT_FOUND: code(
    'runtime',
    'The skill has no such script.',
    "List the skill's scripts/ folder with skillhost activate NAME.",
  ),
  SCRIPT_OUTSIDE_SCRIPTS: code(
    'runtime',
    "Only files under the skill's scripts/ folder can run.",
    'Name a file under scripts/, such as scripts/run.py.',
  ),
  SCRIPT_NOT_TEXT: code(
    'runtime',
    'The script is not text (a binary or not UTF-8); only interpreted scripts run.',
    'Ship the script as source for sh, bash, python3 or node.',
  ),
  SCRIPT_INTERPRETER_UNKNOWN: code(
    'runtime',
    'No allowed interpreter runs this script (by extension or #! line).',
    'Use .sh, .bash, .py, .js/.mjs/.cjs, or a #! line for sh, bash, python3 or node.',
  ),
  SCRIPT_ARGUMENT_INVALID: code(
    'runtime',
    'A script argument holds a NUL character.',
    'Pass arguments without NUL characters.',
  ),
  SCRIPT_TOO_LARGE: code(
    'runtime',
    'The skill is too large to stage for a sandboxed run (files or bytes).',
    'Keep skills small; move large data out of the skill directory.',
  ),
  SCRIPT_NOT_STAGED: code(
    'runtime',
    "The script cannot be staged into the sandbox: it is not the skill folder's owner's (untrusted skill), its user could not read it where it is, or it changed while it was staged.",
    'Make the script a regular file with one link, owned like the skill folder and readable by all (chmod a+r, folders a+x).',
  ),
  WORKSPACE_REFUSED: code(
    'runtime',
    'The workspace cannot be granted writable as it is: a protected path in it is a symbolic link or has other hard links, a protected path leaves it, it is (or holds) the home folder, or it lies inside a protected folder.',
    'Replace the link with what it points to, grant a project folder, or grant the workspace read-only.',
  ),
  WORKSPACE_NOT_WRITABLE: code(
    'runtime',
    "The sandbox cannot write where the run needs to: a writable workspace its user cannot write, or the run folder that keeps a read-only workspace's outputs cannot be made.",
    'Make the folder writable by its owner (scripts run as the workspace owner), grant it read-only, or keep outputs elsewhere (--out DIR).',
  ),
  WORKSPACE_PATH_INVALID: code(
    'runtime',
    'A host tool was given a path it does not take: outside the workspace (absolute, or through a symbolic link), with .. segments, home-relative (~) or holding control characters.',
    'Give the path relative to the workspace (or absolute inside it), from the workspace down.',
  ),
  WORKSPACE_FILE_NOT_FOUND: code(
    'runtime',
    'The workspace has no such file or folder.',
    'List the folder (workspace_list) or find the file (workspace_glob).',
  ),
  WORKSPACE_FILE_HIDDEN: code(
    'runtime',
    'The file is hidden from the host tools and the sandbox because files like it commonly hold secrets (.env, .env.*, *.pem, *.key, id_* keys, .npmrc, .pypirc, .netrc, .git-credentials, .git/config).',
    'If the agent really needs it, run with --expose PATH for that file.',
  ),
  WORKSPACE_FILE_UNREADABLE: code(
    'runtime',
    'The workspace path cannot be read as asked: not a regular file (a folder, FIFO, socket or device), not a folder where one is needed, too large, binary where text is needed, or not permitted.',
    'Name a regular text file (or a folder, to list it); write a large file whole with workspace_write.',
  ),
  WORKSPACE_WRITE_REFUSED: code(
    'runtime',
    'The host tools do not write there: the workspace is read-only, the path is protected (.git, agent and editor folders, .envrc, --protect), a symbolic link is on the way, or the file has other hard links.',
    'Grant the workspace writable (--workspace-writable) for files that are not protected, and write real files, not links.',
  ),
  WORKSPACE_FILE_CHANGED: code(
    'runtime',
    'The file changed between reading it and writing it (or while it was opened), so it was not written.',
    'Read the file again and redo the change.',
  ),
  WORKSPACE_EDIT_MISMATCH: code(
    'runtime',
    'workspace_edit: old_text is not in the file, or is in it more than once without replace_all.',
    'Read the file again and copy old_text exactly (spaces, tabs, line ends), with enough context to occur once.',
  ),
  SANDBOX_UNAVAILABLE: code(
    'runtime',
    'No OS sandbox is available to run the script (bubblewrap missing or not permitted).',
    'Install bubblewrap (apt-get install bubblewrap), or allow unsandboxed runs explicitly.',
  ),
  SETUP_REFUSED: code(
    'runtime',
    "skillhost setup will not install the skill's dependencies as declared: scripts/requirements.txt or scripts/package.json cannot be read, or declares what would run the package's own code on this machine (an editable or source install, a version-control or git dependency, --no-binary).",
    'Declare wheels and registry packages only, or allow package scripts for this setup with --allow-scripts (they run outside the sandbox).',
  ),
  SETUP_TOOL_MISSING: code(
    'runtime',
    "The installer a skill's dependencies need is not on PATH: python3 (with its venv module) for scripts/requirements.txt, npm for scripts/package.json.",
    'Install it (apt-get install python3-venv, or Node.js with npm) and run skillhost setup again.',
  ),
  SETUP_FAILED: code(
    'runtime',
    'A command of skillhost setup failed (the message names it, its exit code and the end of its output); nothing of the environment was kept.',
    'Fix what the output says (a package that cannot be found, no network: --find-links DIR, --index-url URL, --registry URL, --offline), then run skillhost setup again.',
  ),
  AUDIT_UNAVAILABLE: code(
    'runtime',
    'The audit log cannot be written, so the capability was refused.',
    'Check that the audit log path is a writable regular file (not a link).',
  ),
  AUDIT_INVALID: code(
    'runtime',
    'The audit log has altered, missing, reordered or unreadable records.',
    'Keep the log append-only; skillhost audit verify names each problem.',
  ),

  // Installing skills: sources, archives, the lockfile
  SOURCE_INVALID: code(
    'install',
    'The source is not a folder, a git repository or an archive skillhost can install from.',
    'Give a folder, a git URL or owner/repo (with #ref and :subpath), or a .tar.gz, .tgz or .zip file or URL.',
  ),
  SOURCE_FETCH_FAILED: code(
    'install',
    'The source could not be fetched: git or the download failed.',
    'Check the URL and the network; a private repository needs credentials git can use without a prompt (an SSH agent).',
  ),
  SOURCE_REF_NOT_FOUND: code(
    'install',
    'The branch, tag or commit named after # is not in the repository.',
    'Check the #ref; without one the default branch is used.',
  ),
  SOURCE_SUBPATH_NOT_FOUND: code(
    'install',
    'The :subpath is not a folder of the source.',
    'Check the path after the colon; it is relative to the root of the repository or archive.',
  ),
  SOURCE_TOO_LARGE: code(
    'install',
    'The source holds more files or bytes than an install copies (10,000 files, 100 MiB).',
    'Point at the skills with a :subpath, or install the skills one by one with --skill.',
  ),
  ARCHIVE_INVALID: code(
    'install',
    'The archive cannot be read: it is not a gzip-compressed tar or a zip file, or it is damaged.',
    'Check that the file is a .tar.gz, .tgz or .zip and that the download completed.',
  ),
  ARCHIVE_PATH_UNSAFE: code(
    'install',
    'An archive entry has an absolute path, a .. segment, a backslash, a drive letter or a control character.',
    'Refused as a whole: nothing was extracted. Build the archive from relative paths inside one folder.',
  ),
  ARCHIVE_LINK_OUTSIDE: code(
    'install',
    'An archive entry is a link that leads outside the extraction folder, or a path runs through a link.',
    'Refused as a whole: nothing was extracted. Links in an archive may only point inside it.',
  ),
  ARCHIVE_ENTRY_TYPE: code(
    'install',
    'An archive entry is a device, a FIFO or another special file.',
    'Refused as a whole: nothing was extracted. Archives of skills hold files, folders and links only.',
  ),
  ARCHIVE_DUPLICATE_ENTRY: code(
    'install',
    'Two archive entries have the same path (or paths that differ only in case, or a file that is also a folder).',
    'Refused as a whole: nothing was extracted. Rebuild the archive so that each path appears once.',
  ),
  ARCHIVE_LIMIT: code(
    'install',
    'The archive exceeds a limit: more than 10,000 entries, more than 100 MiB unpacked, or a compression ratio over 100.',
    'Refused as a whole: nothing was extracted. Split the archive, or install the skills from their repository.',
  ),
  INSTALL_FILE_SKIPPED: code(
    'install',
    'A file of the skill was not copied: a link leading outside the skill, or a special file.',
    'Put the file itself into the skill folder if the skill needs it.',
  ),
  SKILL_EXISTS: code(
    'install',
    'A skill folder of this name already exists where the skill would be installed.',
    'skillhost update NAME updates a skill installed from a source; --force replaces a folder (its files are lost).',
  ),
  SKILL_NOT_INSTALLED: code(
    'install',
    'No skill of this name is recorded in skills-lock.json.',
    'skillhost list shows where skills come from; only skills installed with skillhost add are managed.',
  ),
  SKILL_MODIFIED: code(
    'install',
    'The files of an installed skill differ from the hashes skills-lock.json records.',
    'skillhost install puts back what the lockfile records; skillhost update records a new version; --force to go ahead anyway.',
  ),
  LOCKFILE_INVALID: code(
    'install',
    'skills-lock.json cannot be read, or an entry of it is not valid.',
    'Fix the field named, or restore the file from version control.',
  ),
  LOCKFILE_MISMATCH: code(
    'install',
    'What is installed, or what the source gives now, differs from skills-lock.json.',
    'skillhost install (without --frozen) puts back modified folders; skillhost update records a new version of the source.',
  ),

  // CLI and runtime

  CONFIG_INVALID: code(
    'usage',
    'The user configuration file cannot be read.',
    'Fix the JSON in the file named, or delete it to start over.',
  ),
  CLIENT_CONFIG_INVALID: code(
    'usage',
    "An MCP client's configuration file cannot be read or parsed, so it is not rewritten.",
    'Fix the file named (JSON, or TOML for Codex), or add the printed entries to it by hand.',
  ),
  USAGE: code('usage', 'The command line is not valid.', 'Run the command with --help.'),
  UI_PORT_UNAVAILABLE: code(
    'runtime',
    'skillhost ui cannot listen on the port on 127.0.0.1 (in use, or not allowed).',
    'Choose another --port, or leave it out for any free port.',
  ),
  SKILL_INVALID: code(
    'runtime',
    'The skill has errors and cannot be loaded.',
    'Run skillhost validate on it and fix the errors it lists.',
  ),
  SKILL_NOT_FOUND: code(
    'runtime',
    'No skill with this name is in the registry.',
    'List the skills with skillhost list; address a shadowed copy as name@source.',
  ),
  SKILL_REMOVED: code(
    'runtime',
    'A skill activated earlier in the conversation is no longer offered: it was removed, renamed or disabled since.',
    'Find the skills there are with skillhost_search (or skillhost list); a skill brought back under another name is activated by that name.',
  ),
  AGENT_NAME_INVALID: code(
    'usage',
    'An agent name is an identifier, never a path: letters, digits, ".", "_" and "-", not starting with "." and without "..", "/" or "\\".',
    'Use the name of the agent folder, e.g. code-analyst.',
  ),
  AGENT_NOT_FOUND: code(
    'runtime',
    'No agent folder with this name holds an agent.yaml in any agents folder.',
    'List the agents with skillhost agent list; agents live in <project>/.agents/agents, ~/.agents/agents or --agents DIR.',
  ),
  AGENT_OUTSIDE_BASE: code(
    'runtime',
    'The agent folder is a symbolic link that leads outside its agents folder; it was not read.',
    'Keep the agent folder inside the agents folder (a link inside it is fine).',
  ),
  AGENT_FILE_UNREADABLE: code(
    'file',
    'agent.yaml or instructions.md cannot be read as a regular UTF-8 text file within the size limit.',
    'Make it a regular UTF-8 file (agent.yaml at most 64 KiB, instructions.md at most 256 KiB).',
  ),
  AGENT_MANIFEST_INVALID: code(
    'yaml',
    'agent.yaml is not a YAML mapping of fields.',
    'Write agent.yaml as "key: value" lines: name, description, models, context_budget, skills, deferred_skills.',
  ),
  AGENT_FIELD_MISSING: code(
    'field',
    'A required field of agent.yaml is missing or empty.',
    'Add "name: <agent name>" to agent.yaml.',
  ),
  AGENT_FIELD_INVALID: code(
    'field',
    'A field of agent.yaml has the wrong type or value.',
    'context_budget is a positive whole number of tokens; skills and deferred_skills are lists of skill names; models is a mapping of provider, preferred and fallback.',
  ),
  AGENT_FIELD_UNKNOWN: code(
    'field',
    'agent.yaml has a field skillhost does not know; it is ignored.',
    'Remove it, or check its spelling against the agent format in the README.',
  ),
  AGENT_NAME_MISMATCH: code(
    'field',
    "The agent's name differs from its folder's name.",
    'Name the folder after the agent, so that it is found by its name.',
  ),
  AGENT_INSTRUCTIONS_MISSING: code(
    'file',
    'The agent has no instructions.md, or it is empty.',
    "Write the agent's role and instructions in instructions.md next to agent.yaml.",
  ),
  AGENT_SKILL_NOT_FOUND: code(
    'runtime',
    'A skill the agent lists is not in any skill source.',
    'Install the skill in one of the sources the message names, or remove it from the agent.',
  ),
  AGENT_SKILL_UNAVAILABLE: code(
    'runtime',
    'A skill the agent lists exists but cannot be used: it has errors or its project folder is not trusted.',
    'Fix the skill (skillhost validate) or trust its project folder (skillhost trust).',
  ),
  AGENT_BUDGET_EXCEEDED: code(
    'runtime',
    "The agent's system prompt and catalog do not fit its context_budget.",
    'Raise context_budget, move skills from skills to deferred_skills, or shorten the instructions.',
  ),
  MODEL_PROVIDER_UNKNOWN: code(
    'usage',
    'The provider is not one skillhost knows.',
    'Use anthropic, openai or openai-compatible (model APIs), or claude, cursor, gemini or acp (command-line agents); see the model table in the README.',
  ),
  MODEL_PROVIDER_CLI: code(
    'usage',
    'The provider is a command-line agent (claude, cursor, gemini, acp), where only a model API will do (a summary model, say).',
    'Choose a model API: --provider anthropic (ANTHROPIC_API_KEY), openai (OPENAI_API_KEY) or openai-compatible (--base-url).',
  ),
  MODEL_KEY_MISSING: code(
    'usage',
    "The provider's API key is not set.",
    'Set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment (or in $SKILLHOST_HOME/keys.json, readable only by you); keys are never taken from arguments.',
  ),
  MODEL_BASE_URL_INVALID: code(
    'usage',
    "The provider's base URL is missing (openai-compatible needs one), not http(s), or carries credentials.",
    'Pass --base-url http://HOST:PORT/v1, or set ANTHROPIC_BASE_URL / OPENAI_BASE_URL; keep keys out of the URL.',
  ),
  MODEL_OVERLOADED: code(
    'runtime',
    'The model API is overloaded (HTTP 529 or an overloaded_error in the stream), after retries.',
    'Try again later, or name a fallback model in agent.yaml (models.fallback).',
  ),
  MODEL_RATE_LIMITED: code(
    'runtime',
    'The model API refused the request for its rate limit, longer than the retries could wait.',
    'Wait and try again, or name a fallback model in agent.yaml (models.fallback).',
  ),
  MODEL_NOT_FOUND: code(
    'runtime',
    'The provider does not serve this model.',
    'Check the model id (--model, models.preferred) against the provider, or name a fallback.',
  ),
  MODEL_AUTH_FAILED: code(
    'runtime',
    'The model API refused the key (HTTP 401 or 403).',
    'Check the API key in the environment and its permissions.',
  ),
  MODEL_BAD_REQUEST: code(
    'runtime',
    'The model API rejected the request as malformed (HTTP 4xx); the fallback would get the same request, so it is not tried.',
    'Read the message; a local server may not support tools or the model named.',
  ),
  MODEL_REQUEST_FAILED: code(
    'runtime',
    'The model request failed: a server error after retries, a network error, or a stream that broke.',
    'Check the base URL and the network, then try again.',
  ),
  MODEL_REFUSED: code(
    'runtime',
    'The model refused to answer (a refusal or content filter stop).',
    'Rephrase the task, or name a fallback model in agent.yaml.',
  ),
  MODEL_CONTEXT_TOO_LONG: code(
    'runtime',
    "The conversation no longer fits the model's context window, and the agent could not compact it further.",
    'Start a new session, give a smaller task, or preload fewer skills.',
  ),
  MODEL_SETTING_IGNORED: code(
    'runtime',
    'The model provider ignored or changed a setting of the request (one the model does not support); the run goes on.',
    'Read the warning; change the setting (the model, the output-token limit) if its effect matters.',
  ),
  CLI_AGENT_NOT_INSTALLED: code(
    'usage',
    'The command-line agent the provider names is not installed (its program is not on PATH).',
    'Install it (Claude Code: npm install -g @anthropic-ai/claude-code; Gemini CLI: npm install -g @google/gemini-cli; Cursor: curl https://cursor.com/install -fsS | bash), or choose a model API: --provider anthropic, openai or openai-compatible.',
  ),
  CLI_AGENT_VERSION_UNSUPPORTED: code(
    'usage',
    'The command-line agent is older than the oldest version skillhost can drive, or its version cannot be read.',
    "Update it (npm install -g @anthropic-ai/claude-code@latest, or the agent's own update command), or choose a model API provider.",
  ),
  CLI_AGENT_LOGIN_REQUIRED: code(
    'runtime',
    'The command-line agent is not logged in, or its credentials were refused.',
    'Log in once with the agent itself (claude, then /login; gemini; agent login), or give it its API key in the environment (ANTHROPIC_API_KEY, GEMINI_API_KEY, CURSOR_API_KEY).',
  ),
  CLI_AGENT_FAILED: code(
    'runtime',
    'The command-line agent failed: it exited before answering, or reported an error skillhost cannot classify.',
    'Read the message and the end of its error output; run the agent by itself to check it works.',
  ),
  CLI_AGENT_PROTOCOL_ERROR: code(
    'runtime',
    'The command-line agent sent output that is not its protocol (a line that is not JSON, a message too large, an answer to nothing).',
    'Check that the program is the agent it should be and a supported version of it.',
  ),
  CLI_AGENT_IDLE_TIMEOUT: code(
    'runtime',
    'The command-line agent said nothing for longer than the idle timeout during a turn, and was stopped with every process it started.',
    "Raise the idle timeout, or check the agent's network and login; time spent waiting for your approval does not count.",
  ),
  CLI_AGENT_MODE_UNSAFE: code(
    'usage',
    "The command-line agent's mode cannot ask for approval (Cursor's print mode), but the policy would ask about some tools.",
    "Use the agent's ACP mode (leave out --cursor-print), or approve every call beforehand with --yes so that no question is left to ask.",
  ),
  CLI_AGENT_COMMAND_INVALID: code(
    'usage',
    'The --acp-command is not one plain command line: it needs a program and its arguments, quoted as a shell would, without expansions, pipes or redirections.',
    'Give the program and its arguments, e.g. --acp-command "my-agent --acp"; put anything else in a script and name the script.',
  ),
  CLI_AGENT_REQUEST_REFUSED: code(
    'runtime',
    'skillhost refused a request of the command-line agent: a file outside the workspace or not readable safely, a write to a read-only workspace, a terminal, or a method it does not offer.',
    'Let the agent use its own tools through the policy, or widen the workspace (--workspace, --workspace-writable).',
  ),
  AGENT_LIMIT_REACHED: code(
    'runtime',
    "The run stopped at a limit: steps, output tokens, wall time, or the agent's context_budget.",
    'Raise the limit (--max-steps, context_budget in agent.yaml), or give a smaller task.',
  ),
  AGENT_INTERRUPTED: code(
    'runtime',
    'The run was interrupted (Ctrl-C, or quit at an approval prompt).',
    'Continue it with --resume ID.',
  ),
  APPROVAL_ENTRY_INVALID: code(
    'usage',
    'An --allow entry is not an allowed-tools entry.',
    'Write entries as in allowed-tools, e.g. --allow run_skill_script or --allow "Bash(sh scripts/run.sh:*)".',
  ),
  SESSION_NOT_FOUND: code(
    'usage',
    'No session has this id.',
    'List the sessions with skillhost sessions list.',
  ),
  SESSION_INVALID: code(
    'file',
    'The session file cannot be read as a session log (a line is not JSON, or the header is missing).',
    'Start a new session; the file is kept as it is.',
  ),
  MODEL_UNKNOWN: code(
    'usage',
    'The model is neither an alias of the provider nor one of its model ids.',
    'Use an alias (sonnet, opus, haiku) or a full model id of the provider, e.g. claude-sonnet-4-5.',
  ),
  TOOL_UNKNOWN: code(
    'runtime',
    'No tool of this name is offered (skillhost_activate, skillhost_read, skillhost_run, skillhost_search; the former names activate_skill, read_skill_resource, run_skill_script and search_skills still answer, deprecated).',
    'Call one of the tools the runtime lists; a tool the host lacks is never offered.',
  ),
  RESOURCE_LIMIT: code(
    'runtime',
    'The script was stopped at a resource limit (details.limit names it: write, for the total bytes it may write to /tmp, /work, its home and a writable workspace; memory, for the memory each process may use).',
    'Make the script write or allocate less, or raise the limit (--max-write SIZE, limits.maxWriteBytes; --memory SIZE, limits.maxMemoryBytes).',
  ),
  SCRIPT_TIMEOUT: code(
    'runtime',
    'The script ran past its wall-clock limit and was killed, with every process it started.',
    'Make the script finish sooner, or raise the timeout (--timeout, limits.timeoutMs).',
  ),
  INTERNAL_ERROR: code(
    'runtime',
    'An unexpected error inside skillhost; the call did nothing further.',
    'Report it with the audit log of the session.',
  ),
  TOOL_INPUT_INVALID: code(
    'runtime',
    "The tool's input does not match its schema: a missing or unknown field, a wrong type, or a value too long.",
    "Send the fields the tool's input schema lists, as strings within their lengths.",
  ),
  SKILL_NOT_ACTIVE: code(
    'runtime',
    'The skill is not active in this session; its scripts run only after activation.',
    'Activate the skill first (skillhost_activate, or skillhost activate).',
  ),
  SKILL_UNAVAILABLE: code(
    'runtime',
    'The skill exists but cannot be used: it has errors, its project folder is not trusted, or it is disabled.',
    'Fix the errors skillhost list shows, trust the project folder (skillhost trust), or turn a disabled skill back on (skillhost enable NAME).',
  ),
  RESOURCE_PATH_INVALID: code(
    'runtime',
    'The resource path is not a plain relative path inside the skill.',
    'Use a relative POSIX path such as references/guide.md: no .., no leading /, ~, \\ or drive letter, no %-escapes.',
  ),
  RESOURCE_NOT_FOUND: code(
    'runtime',
    'The skill has no such file.',
    "Check the path against the skill's file listing.",
  ),
  RESOURCE_OUTSIDE_SKILL: code(
    'runtime',
    'The path leads outside the skill directory (through a symbolic link); it was not read.',
    'Keep resources inside the skill directory as regular files.',
  ),
  RESOURCE_NOT_REGULAR: code(
    'runtime',
    'The path is not a regular file (a directory, FIFO, socket or device).',
    'Read a regular file; list a directory with the activation listing.',
  ),
  RESOURCE_TOO_LARGE: code(
    'runtime',
    'The file is larger than the resource size limit.',
    'Split the file, or raise the limit for trusted skills.',
  ),
  RESOURCE_HARD_LINK: code(
    'runtime',
    'The file has other hard links; from an untrusted skill it may be a file from elsewhere, so it was not read.',
    'Copy the file into the skill instead of linking it.',
  ),
  RESOURCE_BINARY_REFUSED: code(
    'runtime',
    'The file is binary and the policy refuses binary resources.',
    'Allow binary resources (returned as base64), or provide a text version.',
  ),
  RESOURCE_UNREADABLE: code('runtime', 'The file could not be read.', 'Check its permissions.'),
  PROPERTIES_UNAVAILABLE: code(
    'runtime',
    'The skill properties could not be read.',
    'Make sure SKILL.md parses and has a name and a description.',
  ),
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof CODES;

/** Looks up a code's summary and fix hint. */
export function describeCode(code: Code): CodeInfo {
  return CODES[code];
}
