/** The option table: other languages' package managers and toolchains. */
import { askAlways, plain, runsPackages, same, writesConfig } from './helpers.js';
import { type ArgumentSpec, list, type OptionRow, type ProgramSpec } from './spec.js';

const BUILDS = 'runs the build scripts of the packages it fetches (setup.py, extconf.rb, build.rs)';
const PIP: ProgramSpec = {
  names: ['pip', 'pip3'],
  abbreviates: true,
  values: list(
    '-r --requirement -c --constraint -e --editable -t --target --prefix --root -i --index-url --extra-index-url -f --find-links --python --cache-dir --log --proxy --retries --timeout --src --platform --python-version --only-binary --no-binary',
  ),
  subcommands: {
    specs: {
      ...plain(
        list(
          'list show freeze check search cache index inspect uninstall hash completion debug help',
        ),
      ),
      ...same(['install', 'download', 'wheel'], askAlways(BUILDS)),
      config: {
        subcommands: {
          specs: {
            ...plain(['list', 'get', 'debug']),
            ...same(['set', 'unset', 'edit'], writesConfig("pip's configuration")),
          },
          unknown: { reason: 'is not a pip config command skillhost knows' },
        },
      },
    },
    unknown: { reason: 'is not a pip command skillhost knows' },
  },
};

const UV: ProgramSpec = {
  names: ['uv'],
  values: ['--directory', '--project', '--python', '-p', '--cache-dir', '--config-file', '--color'],
  subcommands: {
    specs: {
      ...plain(
        list('lock export tree venv cache version help init remove self python build publish'),
      ),
      run: {
        values: list(
          '--python -p --package --directory --env-file --extra --group --index --default-index --isolated',
        ),
        rows: [
          {
            kind: 'option',
            options: ['--with', '--with-requirements', '--with-editable'],
            value: /[\s\S]*/,
            reason: `installs packages for the run and ${BUILDS}`,
          },
        ],
        subcommands: { specs: {}, unknown: 'command' },
      },
      ...same(['add', 'sync', 'pip'], askAlways(`installs packages and ${BUILDS}`)),
      tool: {
        subcommands: {
          specs: {
            ...plain(['list', 'dir', 'uninstall', 'update-shell']),
            run: runsPackages(),
            ...same(['install', 'upgrade'], askAlways(`installs a package and ${BUILDS}`)),
          },
          unknown: { reason: 'is not a uv tool command skillhost knows' },
        },
      },
    },
    unknown: { reason: 'is not a uv command skillhost knows' },
  },
};

const GO_EXEC: OptionRow = {
  kind: 'option',
  options: ['-toolexec', '--toolexec', '-exec', '--exec'],
  payload: 'shell',
  reason: 'runs another program around each tool or test binary',
};
const goBuild: ArgumentSpec = {
  singleDash: true,
  values: list(
    '-o -p -tags -ldflags -gcflags -asmflags -mod -modfile -overlay -pkgdir -run -bench -count -timeout -cpu -parallel -coverprofile -covermode -coverpkg -C -buildmode -compiler -gccgoflags -installsuffix -pgo',
  ),
  rows: [GO_EXEC],
};

const CARGO: ProgramSpec = {
  names: ['cargo'],
  values: ['-Z', '--config', '-C', '--color'],
  rows: [
    {
      kind: 'option',
      options: ['--config'],
      value: /[\s\S]*/,
      reason: 'sets configuration, and settings (target runners, linkers) run programs',
    },
  ],
  subcommands: {
    specs: {
      ...plain(
        list(
          'build b check c clean doc d new init add remove rm run r test t bench update search publish tree metadata fmt clippy vendor fetch package locate-project pkgid report version help yank owner login logout fix rustc rustdoc generate-lockfile verify-project info',
        ),
      ),
      install: askAlways(`builds a crate from the registry and ${BUILDS}`),
    },
    unknown: {
      reason: 'is a cargo-NAME program on the PATH, or a command skillhost does not know',
    },
  },
};

/** pip, uv, gem, bundle, cargo, go. */
export const TOOLCHAINS: readonly ProgramSpec[] = [
  PIP,
  UV,
  {
    names: ['gem'],
    subcommands: {
      specs: {
        ...plain(
          list(
            'list search info specification contents dependency environment help which outdated uninstall query sources fetch build cleanup owner push yank signin signout lock check',
          ),
        ),
        ...same(['install', 'update', 'pristine'], askAlways(BUILDS)),
      },
      unknown: { reason: 'is not a gem command skillhost knows (plugins add commands)' },
    },
  },
  {
    names: ['bundle', 'bundler'],
    subcommands: {
      specs: {
        ...plain(
          list(
            'check list show outdated info platform lock cache package clean doctor version help init licenses viz binstubs remove',
          ),
        ),
        ...same(['install', 'update', 'add'], askAlways(`installs gems and ${BUILDS}`)),
        exec: { wrapper: { reason: 'runs the command it is given with the bundle loaded' } },
        config: {
          subcommands: {
            specs: {
              ...plain(['list', 'get']),
              ...same(['set', 'unset'], writesConfig("bundler's configuration")),
            },
            unknown: { reason: 'is not a bundle config command skillhost knows' },
          },
        },
      },
      unknown: {
        reason:
          'is not a bundle command skillhost knows (a bundler-NAME program on the PATH may run)',
      },
    },
  },
  CARGO,
  {
    names: ['go'],
    subcommands: {
      specs: {
        ...same(['build', 'test', 'install', 'vet', 'list', 'get'], goBuild),
        ...plain([
          'bug',
          'clean',
          'doc',
          'fix',
          'fmt',
          'mod',
          'work',
          'version',
          'help',
          'telemetry',
        ]),
        run: {
          ...goBuild,
          rows: [
            GO_EXEC,
            {
              kind: 'operand',
              match: /@/,
              label: 'MODULE@VERSION',
              reason: 'fetches a module from the network and runs it',
            },
          ],
        },
        generate: askAlways('runs the commands written in //go:generate comments'),
        env: {
          singleDash: true,
          rows: [
            {
              kind: 'option',
              options: ['-w', '-u'],
              reason: "writes go's configuration (GOFLAGS can name programs to run)",
            },
          ],
        },
        tool: { wrapper: { reason: 'runs the tool it is given' } },
      },
      unknown: { reason: 'is not a go command skillhost knows' },
    },
  },
];
