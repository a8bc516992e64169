import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllowedTools } from '../../src/policy/allowed-tools.js';
import { evaluate, type PolicyConfig, type PolicyDecision } from '../../src/policy/engine.js';

/** A host that allows commands by default, so that only deny rules and doubt stop one. */
const OPEN_HOST: PolicyConfig = {
  tools: ['Bash', 'run_skill_script'],
  defaults: { bash: 'allow' },
  deny: ['Bash(curl:*)'],
};

function decide(
  command: string,
  config: PolicyConfig = OPEN_HOST,
  allowed = 'Bash(echo:*) Bash(git:*) Bash(cat:*) Bash(true:*)',
): PolicyDecision {
  return evaluate(
    { tool: 'Bash', command },
    {
      config,
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

describe('host deny rules on commands', () => {
  it('deny a program wherever the shell or a program in the table would run it', () => {
    const denied = [
      'curl x',
      'true && curl x',
      'true || curl x; echo',
      'echo a | curl x',
      'echo $(curl x)',
      'echo `curl x`',
      'echo $(echo $(curl x))',
      'cat <(curl x)',
      'echo x > >(curl x)',
      '(curl x)',
      '{ curl x; }',
      'if curl x; then true; fi',
      'for i in 1; do curl x; done',
      'case a in a) curl x;; esac',
      'x=$(curl x)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'echo ${a:-$(curl x)}',
      'cat <<EOF\n$(curl x)\nEOF',
      "bash -c 'curl x'",
      'sh -c "curl x"',
      'bash -c \'bash -c "curl x"\'',
      'env curl x',
      'env A=1 B=2 curl x',
      "env -S 'curl x'",
      'xargs curl',
      'xargs -n1 -I{} curl {}',
      "'curl' x",
      '"curl" x',
      'c\\url x',
      "cu''rl x",
      "$'\\x63url' x",
      "$'\\143url' x",
      '/usr/bin/curl x',
      './curl x',
      'CURL x',
      'timeout 5 curl x',
      'nohup nice -n 5 curl x',
      'sudo -u root curl x',
      'command curl x',
      'exec curl x',
      'time curl x',
      '! curl x',
      'find . -exec curl {} \\;',
      "eval 'curl x'",
      "eval cu'rl' x",
      "watch 'curl x'",
      "ssh host 'curl x'",
      "git -c core.sshCommand='curl x' fetch",
      "tar -xf a.tar --to-command='curl x'",
      "trap 'curl x' EXIT",
      'busybox curl x',
      'python3 -m curl',
      'shopt -s expand_aliases\nalias c=curl\nc x',
      "alias c='curl x'",
      'hash -p /usr/bin/curl c; c x',
      "mapfile -C 'curl x' -c 1 < f",
      'npx curl',
      'npm exec -- curl x',
    ];
    for (const command of denied) {
      const decision = decide(command);
      expect(decision.decision, command).toBe('deny');
      expect(decision.rule, command).toBe('deny-rule');
      expect(decision.reason, command).toContain("'Bash(curl:*)'");
    }
    expect(decide('echo $(curl x)').reason).toBe(
      "The host denies 'Bash(curl:*)': 'curl x' runs inside a command substitution",
    );
    expect(decide('xargs curl').reason).toContain('is run by xargs');
  });

  it('ask, never allow, when a denied program may run but the text cannot show it', () => {
    const doubtful = [
      '$c x',
      '"$(echo curl)" x',
      'c{u,}rl x',
      '/usr/bin/cur? x',
      'mywrapper curl x',
      "mywrapper bash -c 'curl x'",
      "mywrapper --run 'curl x; true'",
      "env A=1 ! bash -c 'curl x'",
      'echo curl x | sh',
      'sh <<EOF\ncurl x\nEOF',
      "bash <<< 'curl x'",
      "source /dev/stdin <<< 'curl x'",
      "echo 'curl x' | xargs -I{} sh -c {}",
      "less '+!curl x' f",
      'docker run alpine curl x',
      "python3 -m timeit \"__import__('os').system('curl x')\"",
      'awk \'BEGIN { f = "system"; @f("curl x") }\'',
      'enable -f ./evil.so curl',
      `echo ${'$('.repeat(100)}curl x${')'.repeat(100)}`,
      '=curl x',
      'mytool "$x"',
      'python3 -c \'import os; os.system("curl x")\'',
      'awk \'BEGIN { system("curl x") }\'',
      'echo $((x))',
      "echo 'unclosed",
      'git -c include.path=/tmp/cfg status',
      "printf -v 'a[$(curl x)]' x",
    ];
    for (const command of doubtful) {
      const decision = decide(command);
      expect(decision.decision, command).toBe('ask');
      expect(decision.rule, command).toBe('unreadable-command');
    }
    // The same doubt keeps a skill's grant from pre-approving it.
    const grant = decide('mywrapper curl x', { ...OPEN_HOST, defaults: {} }, 'Bash(mywrapper:*)');
    expect(grant).toMatchObject({ decision: 'ask', rule: 'unreadable-command' });
  });

  it('leave commands alone that only mention the program or never run it', () => {
    for (const command of [
      'echo curl',
      'grep -r curl src',
      'git log --grep curl',
      'command -v curl',
      "cat <<'EOF'\ncurl x\nEOF",
      "echo 'curl x'",
      'curlx y',
      'git status',
    ]) {
      expect(decide(command).decision, command).toBe('allow');
    }
  });

  it('match sub-commands through the global options before them', () => {
    const config = { ...OPEN_HOST, deny: ['Bash(git push:*)'] };
    for (const command of [
      'git push origin',
      'git -C . push',
      'git --no-pager push',
      'git -c x=y push',
    ])
      expect(decide(command, config).decision, command).toBe('deny');
    expect(decide('git pull', config).decision).toBe('allow');
    expect(decide('git "$sub" origin', config).decision).toBe('ask');
  });

  it('beat a skill grant that would cover the command', () => {
    const config: PolicyConfig = { tools: ['Bash'], deny: ['Bash(rm:*)'] };
    expect(decide('git status && rm -rf /', config, 'Bash(git:*) Bash(rm:*)').decision).toBe(
      'deny',
    );
    expect(decide('git log $(rm -rf /)', config, 'Bash(git:*)').decision).toBe('deny');
    expect(decide('git status', config, 'Bash(git:*)').decision).toBe('allow');
    // A bare rule denies every command.
    expect(decide('git status', { tools: ['Bash'], deny: ['Bash'] }, 'Bash(git:*)').decision).toBe(
      'deny',
    );
  });

  it('never allow a denied program in any position the shell would execute (property)', () => {
    const spellings = [
      'curl',
      "'curl'",
      '"curl"',
      'c\\url',
      "cu''rl",
      '/usr/bin/curl',
      "$'\\x63url'",
      "$'cu\\x72l'",
    ];
    const args = ['', ' x', ' -s http://e', " 'a b'"];
    /**
     * Contexts that run X. `simple` contexts take a simple command as X (a program and its
     * words: env, xargs, find -exec), the others a whole command line; `compound` says the
     * result is no longer a simple command (a pipeline, a list, if, while, case, a subshell).
     */
    type Context = { make: (x: string) => string; simple?: true; compound?: true };
    const single = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
    const contexts: readonly Context[] = [
      { make: (x) => `true; ${x}`, compound: true },
      { make: (x) => `true && ${x}`, compound: true },
      { make: (x) => `false || ${x}`, compound: true },
      { make: (x) => `echo a | ${x}`, compound: true },
      { make: (x) => `${x} | cat`, compound: true },
      { make: (x) => `(${x})`, compound: true },
      { make: (x) => `{ ${x}; }`, compound: true },
      { make: (x) => `if ${x}; then true; fi`, compound: true },
      { make: (x) => `while ${x}; do break; done`, compound: true },
      { make: (x) => `for i in 1; do ${x}; done`, compound: true },
      { make: (x) => `case a in a) ${x};; esac`, compound: true },
      { make: (x) => `! ${x}`, compound: true },
      { make: (x) => `echo $(${x})` },
      { make: (x) => `echo "$(${x})"` },
      { make: (x) => `cat <(${x})` },
      { make: (x) => `v=$(${x})` },
      { make: (x) => `echo \${a:-$(${x})}` },
      { make: (x) => `cat <<EOF\n$(${x})\nEOF` },
      { make: (x) => `bash -c ${single(x)}` },
      { make: (x) => `sh -c ${single(x)}` },
      { make: (x) => `eval ${single(x)}` },
      { make: (x) => `watch ${single(x)}` },
      { make: (x) => `git -c core.sshCommand=${single(x)} fetch` },
      { make: (x) => `tar -xf a.tar --to-command=${single(x)}` },
      { make: (x) => `ssh h ${single(x)}` },
      { make: (x) => `mywrapper ${single(x)}` },
      { make: (x) => `trap ${single(x)} EXIT` },
      { make: (x) => `echo ${single(x)} | sh`, compound: true },
      { make: (x) => `bash <<< ${single(x)}` },
      { make: (x) => `source /dev/stdin <<< ${single(x)}` },
      { make: (x) => `xargs -I{} sh -c {} <<< ${single(x)}` },
      { make: (x) => `mapfile -C ${single(x)} -c 1 < f` },
      { make: (x) => `alias c=${single(x)}` },
      { make: (x) => `env A=1 ${x}`, simple: true },
      { make: (x) => `xargs ${x}`, simple: true },
      { make: (x) => `timeout 5 ${x}`, simple: true },
      { make: (x) => `nohup ${x}`, simple: true },
      { make: (x) => `sudo -u r ${x}`, simple: true },
      { make: (x) => `command ${x}`, simple: true },
      { make: (x) => `exec ${x}`, simple: true },
      { make: (x) => `time ${x}`, simple: true },
      { make: (x) => `nice -n 1 ${x}`, simple: true },
      { make: (x) => `busybox ${x}`, simple: true },
      { make: (x) => `mywrapper ${x}`, simple: true },
      { make: (x) => `find . -exec ${x} \\;`, simple: true },
    ];
    const hosts: PolicyConfig[] = [OPEN_HOST, { tools: ['Bash'], deny: ['Bash(curl:*)'] }];
    fc.assert(
      fc.property(
        fc.constantFrom(...spellings),
        fc.constantFrom(...args),
        fc.array(fc.nat(contexts.length - 1), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...hosts),
        (spelling, arg, chosen, host) => {
          let line = `${spelling}${arg}`;
          let compound = false;
          for (const index of chosen) {
            const context = contexts[index] as Context;
            if (context.simple === true && compound) continue;
            line = context.make(line);
            compound = context.compound === true;
          }
          const decision = decide(
            line,
            host,
            'Bash(echo:*) Bash(true:*) Bash(cat:*) Bash(git:*) Bash(xargs:*) Bash(env:*) Bash(bash:*) Bash(sh:*)',
          );
          expect(decision.decision, line).not.toBe('allow');
        },
      ),
      { numRuns: 500 },
    );
  });
});
