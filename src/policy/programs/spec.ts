/**
 * The shape of the option table (program-table.ts): for each program, how it reads its arguments
 * and which options, operands and sub-commands make it run another program, load code or rewrite
 * its configuration. A command grant such as `Bash(git:*)` covers the program doing its own work;
 * a row of this table beyond the words of the grant means the call is asked for.
 */

/** What the value of a row's option is, when it is something that runs. */
export type Payload =
  /** A shell command line (`sh -c`, `tar --to-command`, `rsync -e`). */
  | 'shell'
  /** `KEY=VALUE` (git -c) or `KEY VALUE` (ssh -o), whose value may be a shell command. */
  | 'setting'
  /** The words after the option, up to `;` or `+`, are a command (`find -exec`). */
  | 'words'
  /** The value and every word after it are a command (`python -m pip install`). */
  | 'rest'
  /** Program text in a language this table does not read (`python -c`, `node -e`). */
  | 'code';

/** An option that runs another program (or, without a reason, only names a command: python -m). */
export interface OptionRow {
  readonly kind: 'option';
  /** Spellings: `-c`, `--config`. Long ones match their unambiguous prefixes where the program allows it. */
  readonly options: readonly string[];
  /** Completes "PROGRAM OPTION ...": `can run another program (core.sshCommand)`. */
  readonly reason?: string;
  readonly payload?: Payload;
  /** Only when the option's value matches (`ssh -o ProxyCommand=...`, `tar -f HOST:FILE`). */
  readonly value?: RegExp;
  /** Not when one of these options is also given (`--force-local`, `--sandbox`). */
  readonly unless?: readonly string[];
}

/** An operand (a word that is not an option) that makes the program run something. */
export interface OperandRow {
  readonly kind: 'operand';
  /**
   * `none`: there is no operand, so the program reads its code from its input; `stdin`: the
   * operand names the input (`-`, `/dev/stdin`); a pattern: an operand that matches it.
   */
  readonly match: 'none' | 'stdin' | RegExp;
  readonly reason: string;
  /** Options that give the program its code another way (`-c`, `-e`, `-m`): then no hit. */
  readonly unless?: readonly string[];
  /** Only when one of these options is given (`sh -c CMD`: the first operand is the command). */
  readonly when?: readonly string[];
  /** Only the first operand. */
  readonly first?: boolean;
  /**
   * What the operand is: a shell command line, `NAME=COMMAND` (an alias), or program text that
   * cannot be read here.
   */
  readonly payload?: 'shell' | 'setting' | 'code';
  /** How explanations name the operand (`NAME=VALUE`, `+COMMAND`). */
  readonly label?: string;
}

/** Every use of the program or sub-command beyond the words of a grant. */
export interface AlwaysRow {
  readonly kind: 'always';
  readonly reason: string;
  /** Options with which it runs nothing of the kind (`crontab -l`). */
  readonly unless?: readonly string[];
}

/** A check in code, for what a list cannot say: a sed script, an awk program, a config write. */
export interface CheckRow {
  readonly kind: 'check';
  readonly check: 'sed-script' | 'awk-program' | 'git-config-write' | 'subscript';
}

/** A row of the table. */
export type ProgramRow = OptionRow | OperandRow | AlwaysRow | CheckRow;

/** A program that runs the command in its operands: env, timeout, xargs, sudo. */
export interface WrapperSpec {
  /** Completes "PROGRAM ...": `runs the command it is given`. */
  readonly reason: string;
  /** Operands before the command (`timeout DURATION`, `chroot DIR`). */
  readonly skip?: number;
  /** `NAME=VALUE` operands before the command (`env`). */
  readonly assignments?: boolean;
  /** The command it runs when none is given (`xargs`: echo). */
  readonly fallback?: readonly string[];
  /** Options with which it runs nothing (`command -v`). */
  readonly without?: readonly string[];
  /** The command's words are joined and run by a shell (`watch`, `ssh HOST CMD`). */
  readonly join?: boolean;
  /** It adds arguments the command line does not show (`xargs`). */
  readonly open?: boolean;
}

/** How a program reads its arguments, and its rows. */
export interface ArgumentSpec {
  /** Options that take a value: the rest of the word, or the next word. */
  readonly values?: readonly string[];
  /** Options whose value is optional and only attached (`-i[SUFFIX]`, `--exec-path[=DIR]`). */
  readonly optionalValues?: readonly string[];
  /** Every option it has that takes no value; when given, any other option is a hit (fail closed). */
  readonly flags?: readonly string[];
  /** Long options may be shortened to a prefix (getopt_long, git's parse-options). */
  readonly abbreviates?: boolean;
  /** Options end at the first operand: what follows belongs to the script or the command. */
  readonly optionsEndAtOperand?: boolean;
  /** Options are single-dash words (`find -exec`), never clusters of letters. */
  readonly singleDash?: boolean;
  /** The first word may be old-style letters (`tar xzf FILE`). */
  readonly oldStyle?: boolean;
  /** Options may also start with `+` (`bash +o history`). */
  readonly plusOptions?: boolean;
  readonly rows?: readonly ProgramRow[];
  readonly wrapper?: WrapperSpec;
  readonly subcommands?: SubcommandTable;
}

/** Sub-commands (the first operand): their own specs, and what an unknown one means. */
export interface SubcommandTable {
  readonly specs: Readonly<Record<string, ArgumentSpec>>;
  /**
   * An unknown sub-command asks (with this reason), or is read as a command of its own (`yarn
   * NAME` runs a script or an installed program: the table then reads NAME's words).
   */
  readonly unknown: { readonly reason: string } | 'command';
  /** No sub-command at all (`yarn` alone installs). */
  readonly none?: { readonly reason: string; readonly unless?: readonly string[] };
}

/** A program (by base name) and how it reads its arguments. */
export interface ProgramSpec extends ArgumentSpec {
  readonly names: readonly string[];
}

/** A list of names written as one string of words (the table stays readable, one row a line). */
export function list(names: string): readonly string[] {
  return names.trim().split(/\s+/);
}
