import { describe, expect, it } from 'vitest';
import { type ExplainOptions, explainGrants, explainScripts } from '../../src/policy/explain.js';

const HOST = ['Read', 'Write', 'Bash', 'run_skill_script', 'activate_skill'];
const SCRIPTS = [
  { path: 'scripts/x.sh', interpreter: 'sh', contentHash: 'a'.repeat(64) },
  { path: 'scripts/y.py', interpreter: 'python3', contentHash: 'b'.repeat(64) },
];

function explain(allowed: string, options: Partial<ExplainOptions> = {}) {
  return explainGrants(allowed, { trusted: true, hostTools: HOST, scripts: SCRIPTS, ...options });
}

describe('explainGrants, from the engine’s own decisions', () => {
  it('says granted, with the rows of the option table that still ask', () => {
    const [git] = explain('Bash(git:*)');
    expect(git).toMatchObject({ status: 'granted', example: { call: 'git', decision: 'allow' } });
    expect(git?.exceptions).toEqual(expect.arrayContaining(['git -c', 'git config that writes']));
    expect(git?.reason).toContain('options that run other programs still ask');
  });

  it('says limited when the host takes part of it away, denied when all of it', () => {
    const [git] = explain('Bash(git:*)', { deny: ['Bash(git push:*)'] });
    expect(git?.status).toBe('limited');
    expect(git?.reason).toContain("the host denies 'Bash(git push:*)'");
    const [fs] = explain('/dev/fs', { deny: ['Write'] });
    expect(fs?.status).toBe('limited');
    expect(fs?.reason).toContain('write: deny');
    const [push] = explain('Bash(git push:*)', { deny: ['Bash(git:*)'] });
    expect(push).toMatchObject({ status: 'denied', reason: "The host denies 'Bash(git:*)'" });
  });

  it('says what running the scripts an entry covers does, and overruled when none is pre-approved', () => {
    const [sh] = explain('Bash(sh scripts/x.sh:*)', { deny: ['Bash(sh:*)'] });
    expect(sh?.status).toBe('denied');
    expect(sh?.runs).toEqual([
      expect.objectContaining({ call: 'scripts/x.sh', decision: 'ask', rule: 'script-as-command' }),
    ]);
    const [all] = explain('run_skill_script', {
      hostTools: ['Read', 'run_skill_script', 'activate_skill'],
    });
    expect(all?.status).toBe('overruled');
    expect(all?.runs?.map((run) => run.decision)).toEqual(['ask', 'ask']);
    const [some] = explain('run_skill_script', { deny: ['Bash(python3:*)'] });
    expect(some?.status).toBe('limited');
    expect(some?.runs?.map((run) => [run.call, run.decision])).toEqual([
      ['scripts/x.sh', 'allow'],
      ['scripts/y.py', 'ask'],
    ]);
    // A script the entry names but the skill does not have is still judged from the words.
    const [named] = explain('Bash(python3 scripts/z.py --fast)', { scripts: [] });
    expect(named?.runs?.[0]).toMatchObject({ call: 'scripts/z.py --fast', decision: 'allow' });
  });

  it('says that skillhost run stops at the activation when the host refuses it', () => {
    for (const options of [
      { hostTools: ['Bash', 'run_skill_script'] },
      { deny: ['activate_skill'] },
    ]) {
      const [entry] = explain('run_skill_script', options);
      expect(entry?.runs?.map((run) => [run.decision, run.rule])).toEqual([
        ['deny', options.deny === undefined ? 'ceiling' : 'deny-rule'],
        ['deny', options.deny === undefined ? 'ceiling' : 'deny-rule'],
      ]);
      expect(entry?.runs?.[0]?.reason).toMatch(/^The skill cannot be activated: /);
    }
  });

  it('keeps the earlier verdicts: unavailable, narrows-only, untrusted, invalid', () => {
    expect(explain('WebFetch Bash(*) Frobnicate').map((item) => item.status)).toEqual([
      'unavailable',
      'narrows-only',
      'invalid',
    ]);
    expect(explain('Read', { trusted: false }).map((item) => item.status)).toEqual(['untrusted']);
    expect(explain('Bash(git:*)', { hostTools: ['Read'] })[0]?.status).toBe('unavailable');
  });

  it('agrees with explainScripts, which decides with every entry of the skill active', () => {
    const runs = explainScripts('Bash(sh scripts/x.sh:*) run_skill_script(scripts/*.py)', {
      trusted: true,
      hostTools: HOST,
      scripts: SCRIPTS,
      deny: ['Bash(sh:*)'],
    });
    expect(runs.map((run) => [run.call, run.decision, run.rule])).toEqual([
      ['scripts/x.sh', 'ask', 'script-as-command'],
      ['scripts/y.py', 'allow', 'skill-grant'],
    ]);
  });
});
