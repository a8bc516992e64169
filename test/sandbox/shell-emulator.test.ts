import { describe, expect, it } from 'vitest';
import { runTool, world } from '../helpers/runtime.js';

/**
 * The unit suite plays its fixture scripts with the shell emulator instead of running them; here
 * the real shell runs the same scripts in bubblewrap, and both must give the same output.
 */
const FIXTURES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['#!/bin/sh\necho "hello $1"\n', ['world']],
  ['#!/bin/sh\necho "hello $1"\n', []],
  ['#!/bin/sh\necho changed\n', []],
  ['#!/bin/sh\necho "report for $*"\n', ['March 2025', 'final']],
  ['#!/bin/sh\necho "$# arguments: $*"\n', ['a b', 'c']],
  ['#!/bin/sh\necho "hello $1"\necho "to stderr" >&2\nexit $(($2 + 0))\n', ['you', '7']],
  ['#!/bin/sh\necho "hello $1"\necho "to stderr" >&2\nexit $(($2 + 0))\n', ['x']],
  ['echo "hello $1"\n', ['Ada']],
  ['echo 3\n', []],
];

describe('the shell emulator of the unit suite', () => {
  it('gives the output the real shell gives for every fixture script', async () => {
    for (const [script, args] of FIXTURES) {
      const files = { 'scripts/fixture.sh': script };
      const real = await runTool(
        world({ files, runner: 'bubblewrap' }),
        'scripts/fixture.sh',
        args,
      );
      const played = await runTool(world({ files }), 'scripts/fixture.sh', args);
      const outcome = (run: typeof real) => ({
        stdout: run.result.stdout.head,
        stderr: run.result.stderr.head,
        exitCode: run.result.exitCode,
      });
      expect(outcome(played), `${script} ${JSON.stringify(args)}`).toEqual(outcome(real));
      expect(real.result.sandbox).toBe('bubblewrap');
    }
  });
});
