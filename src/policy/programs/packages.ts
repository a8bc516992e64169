/** The option table: JavaScript package managers and runtimes. */
import { askAlways, plain, runsPackages, same, writesConfig } from './helpers.js';
import {
  type ArgumentSpec,
  list,
  type OptionRow,
  type ProgramSpec,
  type SubcommandTable,
} from './spec.js';

const INSTALL_SCRIPTS =
  'runs the install scripts of the packages it installs (unless --ignore-scripts)';
const installing: ArgumentSpec = {
  abbreviates: true,
  rows: [{ kind: 'always', reason: INSTALL_SCRIPTS, unless: ['--ignore-scripts'] }],
};
const npmLike = {
  abbreviates: true,
  values: list(
    '--prefix -C --dir --cache --registry -w --workspace --filter --tag --otp --loglevel --scope --omit --include',
  ),
} satisfies ArgumentSpec;
const npmOptions: OptionRow = {
  kind: 'option',
  options: list(
    '--script-shell --node-options --init-module --editor --browser --shell --userconfig --globalconfig',
  ),
  value: /[\s\S]*/,
  reason: 'names a program or code npm runs, or a file of settings that can',
};
const NPM: ProgramSpec = {
  names: ['npm'],
  ...npmLike,
  rows: [npmOptions],
  subcommands: {
    specs: {
      ...plain(
        list(
          'run run-script rum urn test tst t start stop restart ls list la ll view v info show outdated why explain pack publish version help help-search search s se find prefix root query doctor fund ping whoami owner access team dist-tag deprecate sbom diff get cache token login logout adduser org profile star unstar stars unpublish completion shrinkwrap prune uninstall un remove rm r unlink find-dupes',
        ),
      ),
      ...same(
        list(
          'install i in ins inst insta instal isnt isnta isntal isntall add install-test it install-ci-test cit clean-install ic isntall-clean ci update up upgrade udpate rebuild rb link ln dedupe ddp',
        ),
        installing,
      ),
      ...same(['exec', 'x'], runsPackages()),
      explore: askAlways("runs a shell command in a package's folder"),
      ...same(['init', 'create', 'innit'], {
        rows: [
          {
            kind: 'operand',
            match: /^[^-]/,
            first: true,
            label: 'NAME',
            reason: 'runs a create-NAME package from the registry',
          },
        ],
      }),
      edit: askAlways('runs an editor'),
      set: writesConfig("npm's configuration (which names programs npm runs)"),
      ...same(['config', 'c'], {
        subcommands: {
          specs: {
            ...plain(['get', 'list', 'ls']),
            ...same(
              ['set', 'delete', 'edit', 'fix'],
              writesConfig("npm's configuration (which names programs npm runs)"),
            ),
          },
          unknown: { reason: 'is not an npm config command skillhost knows' },
        },
      }),
      pkg: {
        subcommands: {
          specs: {
            get: {},
            ...same(
              ['set', 'delete', 'fix'],
              writesConfig('package.json (whose scripts npm runs)'),
            ),
          },
          unknown: { reason: 'is not an npm pkg command skillhost knows' },
        },
      },
      audit: {
        subcommands: {
          specs: { signatures: {}, fix: installing },
          unknown: { reason: 'is not an npm audit command skillhost knows' },
        },
      },
    },
    unknown: {
      reason:
        'is not an npm command skillhost knows (npm accepts abbreviations: it may be one that installs or runs packages)',
    },
  },
};

const scriptRunner = (
  names: readonly string[],
  specs: Record<string, ArgumentSpec>,
  none?: SubcommandTable['none'],
): ProgramSpec => ({
  names,
  ...npmLike,
  rows: [npmOptions],
  subcommands: {
    specs: {
      ...plain(
        list(
          'test t start info list ls why outdated audit pack publish version versions help bin cache licenses root store init',
        ),
      ),
      run: { subcommands: { specs: {}, unknown: 'command' } },
      ...same(
        list(
          'install i add update up upgrade upgrade-interactive rebuild rb link ln import unplug global',
        ),
        installing,
      ),
      ...same(['dlx', 'exec', 'x'], runsPackages()),
      create: askAlways('runs a create-NAME package from the registry'),
      ...same(['config', 'set'], {
        subcommands: {
          specs: {
            ...plain(['get', 'list']),
            ...same(
              ['set', 'delete', 'unset'],
              writesConfig('its configuration (which names programs it runs)'),
            ),
          },
          unknown: { reason: 'is not a config command skillhost knows' },
        },
      }),
      ...same(
        ['workspace', 'workspaces', 'plugin', 'patch-commit', 'env', 'setup', 'self-update'],
        askAlways('runs or installs programs in ways skillhost does not read'),
      ),
      ...specs,
    },
    // `yarn NAME` and `pnpm NAME` run the script NAME, or the installed program NAME.
    unknown: 'command',
    ...(none === undefined ? {} : { none }),
  },
});

/** npm, npx, pnpm, yarn, bun, deno. */
export const PACKAGE_MANAGERS: readonly ProgramSpec[] = [
  NPM,
  {
    names: ['npx', 'pnpx', 'bunx', 'uvx', 'pipx'],
    ...runsPackages({ values: ['-p', '--package', '--from', '--with', '--python'] }),
  },
  scriptRunner(['pnpm'], {}),
  scriptRunner(
    ['yarn'],
    {},
    {
      reason: `installs packages and ${INSTALL_SCRIPTS}`,
      unless: ['--ignore-scripts', '-v', '--version', '-h', '--help'],
    },
  ),
  {
    names: ['bun'],
    values: ['--cwd', '-c', '--config'],
    rows: [
      {
        kind: 'option',
        options: ['-e', '--eval', '-p', '--print'],
        payload: 'code',
        reason: 'runs program text given on the command line',
      },
      {
        kind: 'option',
        options: ['-r', '--preload', '--require', '--import'],
        value: /[\s\S]*/,
        reason: 'loads a module before the program',
      },
    ],
    subcommands: {
      specs: {
        ...plain(
          list(
            'test build install i add a remove rm update outdated link unlink pm init upgrade publish patch info audit why',
          ),
        ),
        run: { subcommands: { specs: {}, unknown: 'command' } },
        x: runsPackages(),
        ...same(['create', 'c'], askAlways('runs a template package from the registry')),
        repl: askAlways('reads program text from its input'),
      },
      unknown: 'command',
    },
  },
  {
    names: ['deno'],
    subcommands: {
      specs: {
        ...plain(
          list(
            'serve task test bench check compile fmt lint doc info init uninstall upgrade cache coverage publish add remove outdated clean completions types lsp install',
          ),
        ),
        run: {
          optionsEndAtOperand: true,
          values: list(
            '--config -c --import-map --env-file --location --seed --v8-flags --inspect',
          ),
          rows: [
            {
              kind: 'operand',
              match: /^(?:https?:|npm:|jsr:)/,
              first: true,
              label: 'URL',
              reason: 'runs a program fetched from the network',
            },
          ],
        },
        eval: askAlways('runs program text given on the command line'),
        repl: askAlways('reads program text from its input'),
        x: runsPackages(),
      },
      unknown: 'command',
    },
  },
];
