import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { RUNTIME_OPTIONS } from '../../src/cli/runtime-options.js';
import { escapeHtml, homeRelative, html } from '../../src/cli/ui/html.js';
import { uiRoutes } from '../../src/cli/ui/routes.js';
import { CONTENT_SECURITY_POLICY, serveUi, type UiServer } from '../../src/cli/ui/server.js';
import { createSessionStore } from '../../src/node/session-store.js';
import { runCli, testCliDeps } from '../helpers/cli.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/** `skillhost ui`'s server: the token, the Host and Origin checks, escaping, loopback only. */

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with exactly the headers given (Host included), over a real socket. */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  host = '127.0.0.1',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host, port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const HOSTILE_DESCRIPTION =
  'Looks harmless <img src=x onerror="alert(1)"> and reads \u202Egnp.exe backwards. Use when "quoted" & <b>bold</b>.';
const HOSTILE_BODY =
  '# Body\n\n<script>alert("body")</script>\n\n<iframe src="http://example.com"></iframe>\n';
/** A directory name a skill cannot have: listed as skipped, with markup in its name. */
const HOSTILE_NAME = '"><svg onload=alert(2)>';

let server: UiServer | undefined;
const stops: Array<() => void> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const stop of stops.splice(0)) stop();
});

/** A ui over a fixture with hostile skills and a session log, and a hand on its timer. */
async function start() {
  const root = tempDir('skillhost-ui-');
  writeTree(root, {
    'skills/hostile/SKILL.md': skillText(
      `name: hostile\ndescription: ${JSON.stringify(HOSTILE_DESCRIPTION)}`,
      HOSTILE_BODY,
    ),
    'skills/rtl\u202Eexe.md/SKILL.md': skillText('name: rtl\ndescription: Reversed.', 'body'),
    [`skills/${HOSTILE_NAME}/SKILL.md`]: skillText(
      `name: other\ndescription: ${JSON.stringify('<script>alert(3)</script>')}`,
      'body',
    ),
  });
  const home = tempDir('skillhost-home-');
  const env = { SKILLHOST_HOME: join(home, '.skillhost') };
  const deps = testCliDeps(home, env);
  const args = parseArgs(
    ['--no-default-sources', '--skills', join(root, 'skills')],
    RUNTIME_OPTIONS,
  );
  const ticks: Array<() => void> = [];
  const routes = uiRoutes(
    { args, deps, token: 'test-token-0123456789abcdef' },
    {
      every: (_ms, tick) => {
        ticks.push(tick);
        const stop = () => ticks.splice(ticks.indexOf(tick), 1);
        stops.push(stop);
        return stop;
      },
    },
  );
  server = await serveUi({ routes, token: 'test-token-0123456789abcdef', port: 0 });
  const store = createSessionStore(join(home, '.skillhost', 'sessions'));
  return { port: server.port, token: 'test-token-0123456789abcdef', store, ticks, home, root };
}

describe('skillhost ui: the server', () => {
  it('serves on 127.0.0.1 only and prints an address with the token', async () => {
    const { port, token } = await start();
    expect(server?.url).toBe(`http://127.0.0.1:${port}/?token=${token}`);
    // Another loopback address of this machine is not listened on.
    await expect(get(port, `/skills?token=${token}`, {}, 'GET', '::1')).rejects.toThrow(
      /ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH/,
    );
    expect((await get(port, `/skills?token=${token}`)).status).toBe(200);
  });

  it('refuses every request without the token, or with another one', async () => {
    const { port, token } = await start();
    for (const path of ['/', '/skills', '/catalog', '/sessions', '/audit', '/ui.js', '/nothing']) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(401);
      expect(answer.body).not.toContain('hostile');
    }
    expect((await get(port, `/skills?token=${token.slice(0, -1)}x`)).status).toBe(401);
    expect((await get(port, `/skills?token=${token}extra`)).status).toBe(401);
    expect((await get(port, '/skills?token=')).status).toBe(401);
  });

  it('refuses a foreign Origin, another site, and a Host that is not this listener', async () => {
    const { port, token } = await start();
    const path = `/skills?token=${token}`;
    expect((await get(port, path, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, path, { origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await get(port, path, { origin: 'null' })).status).toBe(403);
    expect((await get(port, path, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get(port, path, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    // DNS rebinding: a page elsewhere reaching 127.0.0.1 through its own name.
    expect((await get(port, path, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await get(port, path, { host: `127.0.0.1:${port + 1}` })).status).toBe(421);
    expect((await get(port, path, { host: `localhost:${port}` })).status).toBe(200);
  });

  it('answers only GET and HEAD: nothing can be changed', async () => {
    const { port, token } = await start();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      expect((await get(port, `/skills?token=${token}`, {}, method)).status).toBe(405);
    expect((await get(port, `/skills?token=${token}`, {}, 'HEAD')).status).toBe(200);
  });

  it('sends a strict content security policy with every page', async () => {
    const { port, token } = await start();
    const answer = await get(port, `/skills?token=${token}`);
    expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    // No inline script: the one script is a file of this origin.
    expect(answer.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('shows hostile names, descriptions and bodies as text, never as markup', async () => {
    const { port, token } = await start();
    const list = (await get(port, `/skills?token=${token}`)).body;
    const skill = (await get(port, `/skill?address=hostile%40explicit&token=${token}`)).body;
    for (const page of [list, skill]) {
      expect(page).not.toContain('<img src=x');
      expect(page).not.toContain('<b>bold</b>');
      expect(page).not.toContain('\u202E');
      expect(page).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    }
    // A name that reorders itself on the screen is shown with the character that does it.
    expect(list).toContain('rtl\\u202Eexe.md');
    expect(list).not.toContain('<svg onload');
    expect(list).toContain('&quot;&gt;&lt;svg onload=alert(2)&gt;');
    expect(skill).not.toContain('<script>alert("body")');
    expect(skill).not.toContain('<iframe');
    expect(skill).toContain('&lt;script&gt;alert(&quot;body&quot;)&lt;/script&gt;');
    // Every script tag of the pages is the server's own file.
    for (const page of [list, skill])
      for (const tag of page.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/src="\/ui\.js/);
  });

  it('escapes every value it puts into markup, attributes included', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>\`&`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&#96;&amp;',
    );
    expect(escapeHtml('a\u200Fb\u2066c\u0007d\ne')).toBe('a\\u200Fb\\u2066c\\u0007d\ne');
    const value = '"><script>x</script>';
    expect(html`<a title="${value}">${value}</a>`.markup).toBe(
      '<a title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">&quot;&gt;&lt;script&gt;x&lt;/script&gt;</a>',
    );
  });

  it('tells an open session page of each change of its log, over server-sent events', async () => {
    const { port, token, store, ticks } = await start();
    store.append('s1', [JSON.stringify({ type: 'session', id: 's1', agent: 'a', created: 'x' })]);
    const events: string[] = [];
    const stream = await new Promise<{ close: () => void }>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/sessions/s1/events?token=${token}`,
          headers: { host: `127.0.0.1:${port}` },
        },
        (response) => {
          expect(response.headers['content-type']).toContain('text/event-stream');
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => events.push(chunk));
          resolve({ close: () => outgoing.destroy() });
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    await expect.poll(() => ticks.length).toBe(1);
    ticks[0]?.();
    expect(events.join('')).not.toContain('event: update');
    store.append('s1', [
      JSON.stringify({ type: 'message', message: { role: 'user', content: 'hi' } }),
    ]);
    ticks[0]?.();
    await expect.poll(() => events.join('')).toContain('event: update');
    stream.close();
    // The stream stops looking when the page goes.
    await expect.poll(() => ticks.length).toBe(0);
  });

  it('the command: its help, its usage errors, and a port that is taken', async () => {
    const help = await runCli(['ui', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: skillhost ui [--port P] [--open]');
    expect((await runCli(['ui', 'extra'])).code).toBe(2);
    const wide = await runCli(['ui', '--port', '70000']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('--port needs a port from 0 to 65535');
    // Ctrl-C stops it; the address it printed is on 127.0.0.1 with a long random token.
    const stopped = await runCli(['ui', '--no-default-sources'], {
      interrupt: (listener) => {
        queueMicrotask(listener);
        return () => {};
      },
    });
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(
      /^skillhost ui: open http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}\n/,
    );
    // Every option the help names is one it accepts.
    const ui = COMMANDS.find((command) => command.name === 'ui');
    const options = [...(ui?.help.matchAll(/(?:^ {2}|, )(--[a-z][a-z-]*)/gm) ?? [])].map(
      (match) => match[1] as string,
    );
    expect(options).toEqual(
      expect.arrayContaining(['--port', '--open', '--skills', '--agents', '--deny', '--audit-log']),
    );
    for (const option of options) {
      const run = await runCli(['ui', option, '--definitely-not-an-option'], {
        interrupt: (listener) => {
          queueMicrotask(listener);
          return () => {};
        },
      });
      expect([option, run.stderr]).not.toEqual([
        option,
        expect.stringContaining(`unknown option '${option}'`),
      ]);
    }
    const { port } = await start();
    const taken = await runCli(['ui', '--no-default-sources', '--port', String(port)]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`error UI_PORT_UNAVAILABLE: Cannot listen on 127.0.0.1:${port}`);
  });

  it('--open hands the tokenized address to the opener; a failing opener is only a warning', async () => {
    const stopSoon = (listener: () => void) => {
      queueMicrotask(listener);
      return () => {};
    };
    const opened: string[] = [];
    const run = await runCli(['ui', '--no-default-sources', '--open'], {
      interrupt: stopSoon,
      openUrl: (url) => {
        opened.push(url);
      },
    });
    expect(run.code).toBe(0);
    const printed = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})\n/.exec(
      run.stdout,
    )?.[1];
    expect(printed).toBeDefined();
    expect(opened).toEqual([printed]);
    expect(run.stderr).toBe('');
    // Without --open, nothing is opened.
    opened.length = 0;
    expect(
      (
        await runCli(['ui', '--no-default-sources'], {
          interrupt: stopSoon,
          openUrl: (url) => void opened.push(url),
        })
      ).code,
    ).toBe(0);
    expect(opened).toEqual([]);
    for (const opener of [
      () => Promise.reject(new Error('spawn xdg-open ENOENT')),
      () => {
        throw new Error('spawn xdg-open ENOENT');
      },
    ]) {
      const failed = await runCli(['ui', '--no-default-sources', '--open'], {
        interrupt: stopSoon,
        openUrl: opener,
      });
      expect(failed.code).toBe(0);
      expect(failed.stdout).toMatch(/^skillhost ui: open http:\/\/127\.0\.0\.1:/);
      expect(failed.stderr).toBe(
        'skillhost: warning: ui: could not open a browser (spawn xdg-open ENOENT); open the address above\n',
      );
    }
    // A host with no opener says so, and serves all the same.
    const none = await runCli(['ui', '--no-default-sources', '--open'], { interrupt: stopSoon });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('this host cannot open a browser');
  });

  it("a session's page shows the catalog its runs were shown, or says it was not recorded", async () => {
    const { port, token, store } = await start();
    const header = JSON.stringify({ type: 'session', id: 's1', agent: 'a', created: 'x' });
    const catalog = (hash: string, skills: Array<Record<string, unknown>>) =>
      JSON.stringify({
        type: 'catalog',
        time: '2026-01-01T00:00:00Z',
        format: 'xml',
        budget: 40,
        hash,
        tokens: 38,
        exact: true,
        preloaded: ['base'],
        skills,
        explain: ['Budget 40 tokens; 1 skill hidden.'],
      });
    store.append('s1', [
      header,
      catalog('a'.repeat(64), [
        {
          name: 'kept',
          trusted: true,
          level: 'full',
          rank: 1,
          tokens: 30,
          reason: 'shown in full',
        },
        {
          name: 'cut<b>',
          trusted: false,
          level: 'hidden',
          rank: 2,
          tokens: 0,
          reason: 'hidden: <i>ranked</i> 2 of 2; the budget held the skills ranked above it',
        },
      ]),
      JSON.stringify({ type: 'resume', time: 'y' }),
      catalog('a'.repeat(64), []),
      JSON.stringify({ type: 'resume', time: 'z' }),
      catalog('b'.repeat(64), [
        { name: 'kept', trusted: true, level: 'short', rank: 1, tokens: 20, reason: 'shortened' },
      ]),
    ]);
    const page = (await get(port, `/sessions/s1?token=${token}`)).body;
    expect(page).toContain('id="catalog-recorded"');
    expect(page).not.toContain('catalog-not-recorded');
    // Runs 1 and 2 were shown the same catalog (one table); run 3 another.
    expect(page).toContain('runs 1, 2');
    expect(page).toContain('run 3');
    expect(page.match(/<table id="session-catalog-\d+"/g)).toEqual([
      '<table id="session-catalog-1"',
      '<table id="session-catalog-3"',
    ]);
    expect(page).toContain('budget 40 tokens');
    expect(page).toContain('<tr data-level="hidden">');
    expect(page).toContain('cut&lt;b&gt; <span class="tag untrusted">untrusted</span>');
    expect(page).toContain('hidden: &lt;i&gt;ranked&lt;/i&gt; 2 of 2');
    expect(page).toContain('Budget 40 tokens; 1 skill hidden.');
    expect(page).toMatch(/in the system prompt<\/th><td>base</);
    // A log from before the catalog was kept still renders, and says what it lacks.
    store.append('old', [header.replace('"s1"', '"old"')]);
    const old = await get(port, `/sessions/old?token=${token}`);
    expect(old.status).toBe(200);
    expect(old.body).toContain('id="catalog-not-recorded"');
    expect(old.body).toContain('Not recorded');
    expect(old.body).not.toContain('session-catalog-');
  });

  it('shows paths under the home folder as ~/…, and no other path so', async () => {
    const { port, token, home, root } = await start();
    const sessions = (await get(port, `/sessions?token=${token}`)).body;
    expect(sessions).toContain('<code>~/.skillhost/sessions</code>');
    expect(sessions).not.toContain(home);
    const audit = (await get(port, `/audit?token=${token}`)).body;
    expect(audit).toContain('~/.skillhost/audit.jsonl');
    expect(audit).not.toContain(home);
    // The skills' folder is not under this home: shown as it is.
    expect((await get(port, `/skills?token=${token}`)).body).toContain(root);
    expect(
      homeRelative('/home/me/project and /home/me, not /home/me2 or /x/home/me', '/home/me'),
    ).toBe('~/project and ~, not /home/me2 or /x/home/me');
    expect(homeRelative('"/home/me/a" (/home/me/b)', '/home/me/')).toBe('"~/a" (~/b)');
    expect(homeRelative('/a/b', '/')).toBe('/a/b');
    expect(homeRelative('/a/b', undefined)).toBe('/a/b');
    expect(homeRelative('/h.me/x /hxme/x', '/h.me')).toBe('~/x /hxme/x');
  });
});
