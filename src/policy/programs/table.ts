/**
 * The option table: for each program, how it reads its arguments, and which options, operands
 * and sub-commands make it run another program, load code or rewrite its configuration (the row
 * shapes are in spec.ts). A command grant covers the program doing its own work; a row beyond the
 * grant's words means the call is asked for, and `skillhost policy explain` and the decisions
 * quote the row. Deny rules look inside the commands these programs run (`xargs curl`).
 */

import { BUILD_TOOLS } from './build-tools.js';
import { GIT_TOOLS } from './git.js';
import { INTERPRETERS } from './interpreters.js';
import { PACKAGE_MANAGERS } from './packages.js';
import { REMOTE_TOOLS } from './remote.js';
import { list, type ProgramSpec } from './spec.js';
import { ARCHIVES, TEXT_TOOLS } from './text-tools.js';
import { TOOLCHAINS } from './toolchains.js';
import { WRAPPERS } from './wrappers.js';

/** Every program the table describes. */
export const PROGRAMS: readonly ProgramSpec[] = [
  ...INTERPRETERS,
  ...WRAPPERS,
  ...TEXT_TOOLS,
  ...ARCHIVES,
  ...REMOTE_TOOLS,
  ...GIT_TOOLS,
  ...PACKAGE_MANAGERS,
  ...TOOLCHAINS,
  ...BUILD_TOOLS,
];

/**
 * Programs known never to run their operands as programs, so that a denied program's name as
 * one of their arguments (`grep curl notes.md`) is only a word. Anything else that is not in
 * the table may (`proxychains curl`), which a deny rule treats as a possible use.
 */
export const INERT_PROGRAMS: ReadonlySet<string> = new Set(
  list(
    'cat echo ls grep egrep fgrep head tail wc uniq cut tr diff cmp comm file stat du df pwd basename dirname realpath readlink which type true false date mkdir rmdir touch cp mv ln rm chmod chown tee base64 sha256sum sha1sum md5sum seq yes sleep id whoami uname hostname printenv jq yq column nl fold fmt paste join split csplit expand unexpand od xxd hexdump strings tac rev shuf numfmt expr cd pushd popd set shopt unalias help history jobs kill pgrep ps top free uptime curl tree more unzip gzip gunzip bzip2 xz zstd zcat',
  ),
);
