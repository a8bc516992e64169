import { describe, expect, it } from 'vitest';
import { parseAllowedTools } from '../../src/policy/allowed-tools.js';
import {
  approvalKey,
  evaluate,
  type PolicyConfig,
  type PolicyDecision,
  type ToolRequest,
} from '../../src/policy/engine.js';

const ALL = ['Read', 'Bash', 'run_skill_script', 'activate_skill'];

function script(path: string, interpreter = 'sh', args: string[] = []): ToolRequest {
  return {
    tool: 'run_skill_script',
    script: {
      skill: 'demo@project',
      source: 'project',
      path,
      contentHash: 'c'.repeat(64),
      interpreter,
      args,
    },
  };
}

function decide(
  request: ToolRequest,
  allowed: string,
  config: Partial<PolicyConfig> = {},
  approved?: Set<string>,
): PolicyDecision {
  return evaluate(request, {
    config: { tools: ALL, ...config },
    active: [
      {
        address: 'demo@project',
        source: 'project',
        trusted: true,
        contentHash: undefined,
        grants: parseAllowedTools(allowed).grants,
      },
    ],
    ...(approved === undefined ? {} : { approved: (key: string) => approved.has(key) }),
  });
}

describe('script runs are commands: host rules about commands bind them', () => {
  const grants = [
    'Bash(sh scripts/x.sh:*)',
    'Bash(bash scripts/x.sh:*)',
    'Bash(./scripts/x.sh:*)',
    'Bash(scripts/x.sh:*)',
    'Bash(sh:*)',
    'run_skill_script',
    'run_skill_script(scripts/*.sh)',
    '/dev/scripts',
  ];

  it('a skill pre-approves a run when no host rule binds it', () => {
    for (const grant of grants)
      expect(decide(script('scripts/x.sh'), grant), grant).toMatchObject({
        decision: 'allow',
        rule: 'skill-grant',
      });
  });

  it('a deny rule that matches the run, any host rule about bash, or no bash tool: asked, never pre-approved', () => {
    const binding: Array<[string, Partial<PolicyConfig>]> = [
      ['--deny Bash', { deny: ['Bash'] }],
      ['--deny Bash(*)', { deny: ['Bash(*)'] }],
      ['--deny /dev/shell', { deny: ['/dev/shell'] }],
      ['--deny Bash(sh:*)', { deny: ['Bash(sh:*)'] }],
      ['--deny Bash(bash:*) (sh and bash are one)', { deny: ['Bash(bash:*)'] }],
      ['--deny Bash(/bin/sh:*)', { deny: ['Bash(/bin/sh:*)'] }],
      ['--deny the grant itself', { deny: ['Bash(sh scripts/x.sh:*)'] }],
      ['--deny Bash(scripts/x.sh:*)', { deny: ['Bash(scripts/x.sh:*)'] }],
      ['--deny Bash(sh scripts/x.sh --force)', { deny: ['Bash(sh scripts/x.sh --force)'] }],
      ['--tools without bash', { tools: ['Read', 'run_skill_script'] }],
      ['bash denied by default', { defaults: { bash: 'deny' } }],
    ];
    for (const [label, config] of binding) {
      for (const grant of grants) {
        const decision = decide(script('scripts/x.sh', 'sh', ['--force']), grant, config);
        expect(decision, `${label} / ${grant}`).toMatchObject({
          decision: 'ask',
          effect: 'ask',
          rule: 'script-as-command',
        });
        expect(decision.reason, label).toContain(
          "A script run is the command 'sh scripts/x.sh --force'",
        );
      }
    }
  });

  it('a deny rule about another command, or another script, leaves the run alone', () => {
    for (const deny of ['Bash(curl:*)', 'Bash(sh scripts/other.sh:*)', 'Bash(python3:*)', 'Read'])
      expect(
        decide(script('scripts/x.sh'), 'Bash(sh scripts/x.sh:*)', { deny: [deny] }).decision,
        deny,
      ).toBe('allow');
    expect(
      decide(script('scripts/x.py', 'python3'), 'run_skill_script', { deny: ['Bash(python:*)'] })
        .rule,
    ).toBe('script-as-command');
    expect(
      decide(script('scripts/x.js', 'node'), 'run_skill_script', { deny: ['Bash(nodejs:*)'] }).rule,
    ).toBe('script-as-command');
  });

  it('deny rules for run_skill_script itself deny, by path too', () => {
    expect(
      decide(script('scripts/x.sh'), 'run_skill_script', { deny: ['run_skill_script'] }),
    ).toMatchObject({ decision: 'deny', rule: 'deny-rule' });
    expect(
      decide(script('scripts/x.sh'), 'run_skill_script', {
        deny: ['run_skill_script(scripts/x.sh)'],
      }).decision,
    ).toBe('deny');
    expect(
      decide(script('scripts/y.sh'), 'run_skill_script', {
        deny: ['run_skill_script(scripts/x.sh)'],
      }).decision,
    ).toBe('allow');
    expect(decide(script('scripts/x.sh'), 'run_skill_script', { tools: ['Bash'] }).rule).toBe(
      'ceiling',
    );
  });

  it("the user's own approval of this exact content still stands; shadow mode enforces nothing", () => {
    const key = approvalKey({
      source: 'project',
      skill: 'demo@project',
      contentHash: 'c'.repeat(64),
      subject: 'script:scripts/x.sh',
    });
    expect(decide(script('scripts/x.sh'), '', { deny: ['Bash'] }, new Set([key]))).toMatchObject({
      decision: 'allow',
      rule: 'approval',
    });
    expect(
      decide(script('scripts/x.sh'), 'run_skill_script', { deny: ['Bash'], shadow: true }),
    ).toMatchObject({ decision: 'ask', effect: 'allow' });
    // A host default that denies scripts still wins over everything.
    expect(
      decide(
        script('scripts/x.sh'),
        'run_skill_script',
        { defaults: { run_skill_script: 'deny' } },
        new Set([key]),
      ).decision,
    ).toBe('deny');
  });
});
