import { describe, expect, it } from 'vitest';
import { parseAllowedTools } from '../../src/policy/allowed-tools.js';
import { evaluate, type PolicyDecision } from '../../src/policy/engine.js';
import { tableRowsFor } from '../../src/policy/programs/describe.js';
import { PROGRAMS } from '../../src/policy/programs/table.js';
import { TABLE } from './program-table-cases.js';

function decide(command: string, allowed: string): PolicyDecision {
  return evaluate(
    { tool: 'Bash', command },
    {
      config: { tools: ['Bash'] },
      active: [
        {
          address: 'demo@project',
          source: 'project',
          trusted: true,
          contentHash: undefined,
          grants: parseAllowedTools(allowed).grants,
        },
      ],
    },
  );
}

describe('the option table', () => {
  for (const { grant, asks, allows } of TABLE) {
    it(`${grant}: what asks (and names its row), what stays pre-approved`, () => {
      for (const [command, row] of asks) {
        const decision = decide(command, grant);
        expect(decision.decision, command).toBe('ask');
        expect(decision.rule, command).toBe('runs-other-programs');
        expect(decision.reason, command).toContain(row);
      }
      for (const command of allows) {
        const decision = decide(command, grant);
        expect(decision, command).toMatchObject({ decision: 'allow', rule: 'skill-grant' });
      }
    });
  }

  it("a grant's own words cover the rows they name: exact grants, and prefixes past the option", () => {
    expect(decide('git -c core.pager=cat log', 'Bash(git -c core.pager=cat log)').decision).toBe(
      'allow',
    );
    expect(
      decide('git -c core.pager=cat log -5', 'Bash(git -c core.pager=cat log:*)').decision,
    ).toBe('allow');
    expect(decide('git -c core.pager=evil log', 'Bash(git -c:*)').decision).toBe('ask');
    expect(decide('npx prettier --check .', 'Bash(npx prettier:*)').decision).toBe('allow');
    expect(
      decide('timeout 10 python scripts/run.py --x', 'Bash(timeout 10 python scripts/run.py:*)')
        .decision,
    ).toBe('allow');
    // The wrapped program is read too: its own rows apply past the grant.
    expect(decide('timeout 10 python -c x', 'Bash(timeout 10 python:*)').rule).toBe(
      'runs-other-programs',
    );
    expect(decide('timeout 10 git -c x=y log', 'Bash(timeout 10 git:*)').rule).toBe(
      'runs-other-programs',
    );
  });

  it('names the first row of the command line when several apply, whichever grant came first', () => {
    const decision = decide("git -c alias.x='!id' x", 'Bash(echo:*) Bash(git:*)');
    expect(decision.rule).toBe('runs-other-programs');
    expect(decision.reason).toContain('git -c');
  });

  it('lists, for explanations, the rows a grant leaves asking', () => {
    expect(tableRowsFor(['git'])).toEqual(
      expect.arrayContaining(['git -c', 'git clone -c/--config', 'git submodule foreach COMMAND']),
    );
    expect(tableRowsFor(['git', 'log'])).toEqual(['git log --output']);
    expect(tableRowsFor(['git', 'status'])).toEqual([]);
    expect(tableRowsFor(['sh', 'scripts/x.sh'])).toEqual([]);
    expect(tableRowsFor(['timeout', '10', 'python'])).toContain('python -c');
    expect(tableRowsFor(['curl'])).toEqual([]);
  });

  it('has one entry per program name, and every row that asks says why', () => {
    const names = PROGRAMS.flatMap((spec) => spec.names);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of PROGRAMS) {
      for (const row of spec.rows ?? []) {
        if (row.kind === 'option' && row.payload !== 'rest')
          expect(row.reason, spec.names[0]).toMatch(/\w{3}/);
      }
    }
  });
});
