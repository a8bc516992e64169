import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startUiProcess } from '../../scripts/ui-browser.mjs';
import { runUiSession, SESSION_CALLS } from '../../scripts/ui-session.mjs';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

/**
 * `skillhost ui` in a real browser: the built bin serves a session of the example agent (run
 * against the scripted local model, with compactions, an approval and a denial) to headless
 * Chromium. Each page is loaded, its visible text checked, and a screenshot kept in
 * $SKILLHOST_ARTIFACTS (default: the temporary folder's skillhost-browser-artifacts).
 */

const artifacts = process.env.SKILLHOST_ARTIFACTS ?? join(tmpdir(), 'skillhost-browser-artifacts');

let home: string;
let session: string;
let ui: Awaited<ReturnType<typeof startUiProcess>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let alerts: string[];

/** The log lines of the session, parsed. */
function sessionRecords(id: string): Array<Record<string, unknown>> {
  return readFileSync(join(home, '.skillhost', 'sessions', `${id}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The events of the session's log. */
function sessionEvents(id: string): Array<Record<string, unknown>> {
  return sessionRecords(id)
    .filter((record) => record.type === 'event')
    .map((record) => record.event as Record<string, unknown>);
}

/** What a user sees of an element: its rendered text (hidden parts left out). */
function visible(page: Page, selector: string): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked.
  return page.locator(selector).innerText();
}

function address(path: string, query: Record<string, string> = {}): string {
  const base = new URL(ui.url);
  const token = base.searchParams.get('token') as string;
  return `${base.origin}${path}?${new URLSearchParams({ ...query, token })}`;
}

async function open(
  path: string,
  query: Record<string, string> = {},
  shot?: string,
): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  const response = await page.goto(address(path, query));
  expect(response?.status()).toBe(200);
  if (shot !== undefined) {
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, `${shot}.png`), fullPage: true });
  }
  return page;
}

/** Folders the whole file uses (tempDir's are removed after each test). */
const folders: string[] = [];
function folder(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  folders.push(path);
  return path;
}

beforeAll(async () => {
  alerts = [];
  home = folder('skillhost-ui-browser-');
  session = await runUiSession(home);
  const hostile = folder('skillhost-ui-hostile-');
  writeTree(hostile, {
    'evil/SKILL.md': skillText(
      `name: evil\ndescription: ${JSON.stringify('Harmless <img src=x onerror="alert(1)"> <b>bold</b>')}`,
      '# Evil\n\n<script>alert("body")</script>\n',
    ),
  });
  ui = await startUiProcess(home, ['--skills', hostile]);
  browser = await launchChromium();
  context = browser.context;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  expect(await ui?.stop()).toBe(0);
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

describe('skillhost ui in Chromium', () => {
  it('Skills: every source with its trust, every skill with its status; hostile text stays text', async () => {
    const page = await open('/skills', {}, 'skills');
    const text = await visible(page, 'main');
    expect(text).toContain('Sources');
    for (const name of ['code-analysis', 'csv-summary', 'figures-report', 'release-notes', 'evil'])
      expect(text).toContain(name);
    expect(await page.locator('#skills tbody tr').count()).toBe(5);
    expect(text).toContain('Harmless <img src=x onerror="alert(1)"> <b>bold</b>');
    expect(await page.locator('main img, main b').count()).toBe(0);
    const skill = await open('/skill', { address: 'evil@explicit-2' }, 'skill-evil');
    const body = await visible(skill, '#body');
    expect(body).toContain('<script>alert("body")</script>');
    expect(await skill.locator('main script').count()).toBe(0);
    expect(alerts).toEqual([]);
  });

  it("a skill's page: frontmatter, body, files, allowed-tools against the policy", async () => {
    const page = await open('/skill', { address: 'code-analysis@explicit' }, 'skill');
    const text = await visible(page, 'main');
    expect(text).toContain('Frontmatter');
    expect(text).toContain('allowed-tools');
    expect(text).toContain('references/checklist.md');
    expect(text).toContain('scripts/count_lines.sh');
    expect(await page.locator('#grants tbody tr').count()).toBeGreaterThan(0);
  });

  it('Catalog: what the model sees under a budget, each skill drawn against it, and why', async () => {
    const page = await open('/catalog', { budget: '60', format: 'xml' }, 'catalog');
    const text = await visible(page, 'main');
    expect(text).toContain('Budget 60 tokens');
    expect(await page.locator('#catalog tbody tr').count()).toBe(5);
    expect(await page.locator('#catalog svg.bar').count()).toBe(5);
    const cut = await page.locator('#catalog tbody tr:not([data-level="full"])').count();
    expect(cut).toBeGreaterThan(0);
    expect(text).toContain('the budget held the skills ranked above it');
    expect(await visible(page, '#catalog-text')).toContain('<available_skills>');
    // The form asks again with another format.
    await page.selectOption('select[name=format]', 'markdown');
    await page.click('button[type=submit]');
    await page.waitForURL(/format=markdown/);
    expect(await visible(page, '#catalog-text')).toContain('## Available skills');
  });

  it('Sessions: the list, and a session as a timeline with one chart point per request', async () => {
    const list = await open('/sessions', {}, 'sessions');
    expect(await visible(list, '#sessions')).toContain(session);
    const page = await open(`/sessions/${session}`, {}, 'session');
    const events = sessionEvents(session);
    const requests = events.filter((event) => event.type === 'step').length;
    expect(requests).toBe(SESSION_CALLS.length + 1);
    const points = page.locator('#context-chart circle.point');
    expect(await points.count()).toBe(requests);
    const drawn = await points.evaluateAll((circles) =>
      circles.map((circle) => Number(circle.getAttribute('data-tokens'))),
    );
    expect(drawn).toEqual(
      events.filter((event) => event.type === 'step').map((event) => event.contextTokens),
    );
    expect(await page.locator('#context-window').count()).toBe(1);
    expect(await page.locator('#context-threshold').count()).toBe(1);
    const compactions = events.filter((event) => event.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(await page.locator('#context-chart g.compaction').count()).toBe(compactions.length);
    // The chart's markers and the timeline's compaction rows carry the same labels, in order.
    const labels = compactions.map((_, index) => `C${index + 1}`);
    expect(
      await page
        .locator('#context-chart g.compaction text')
        .evaluateAll((texts) => texts.map((text) => text.textContent)),
    ).toEqual(labels);
    const rows = await page.locator('#timeline tr.compaction td:nth-child(2)').allInnerTexts();
    expect(rows).toEqual(labels.map((label) => `compaction ${label}`));
    // How full the context was before and after each compaction.
    const table = await visible(page, '#compactions');
    const first = compactions[0] as { preTokens: number; postTokens: number };
    expect(table).toContain(first.preTokens.toLocaleString('en-US'));
    expect(table).toContain(first.postTokens.toLocaleString('en-US'));
    // Which skills the model was given: preloaded, in the catalog, activated.
    const offered = await visible(page, '#offered');
    expect(offered).toMatch(/in the system prompt\s+code-analysis/);
    const catalog = /in its catalog\s+([^\n]*)/.exec(offered)?.[1] ?? '';
    for (const name of ['csv-summary', 'figures-report', 'release-notes'])
      expect(catalog).toContain(name);
    expect(catalog).not.toContain('code-analysis');
    // As the session saw it, from its log: not the skill added since (evil, of this ui's sources).
    expect(catalog).not.toContain('evil');
    const recorded = sessionRecords(session).filter((record) => record.type === 'catalog');
    expect(recorded).toHaveLength(1);
    const shown = recorded[0] as { hash: string; skills: Array<{ name: string; level: string }> };
    expect(await visible(page, '#catalog-recorded')).toContain('As recorded');
    expect(
      await page
        .locator('#session-catalog-1 tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [row.children[1]?.textContent, row.getAttribute('data-level')]),
        ),
    ).toEqual(shown.skills.map((skill) => [skill.name, skill.level]));
    expect(await page.locator(`[title="${shown.hash}"]`).count()).toBe(1);
    // The run's --catalog-budget cut some: which, and why, as the model was shown them.
    expect(shown.skills.some((skill) => skill.level !== 'full')).toBe(true);
    const recordedText = await visible(page, '#session-catalog-1');
    expect(recordedText).toContain('the budget held the skills ranked above it');
    expect(await visible(page, 'main')).toContain('budget 150 tokens');
    expect(offered).toMatch(/activated\s+csv-summary \(request 2\)/);
    const timeline = await visible(page, '#timeline');
    // When each skill was activated, demoted and activated again.
    expect(timeline).toMatch(/csv-summary\s+full\s+activated/);
    expect(timeline).toMatch(/csv-summary\s+demoted\s+at a compaction/);
    expect(timeline).toMatch(/csv-summary\s+full\s+re-activated/);
    // Which calls were asked and approved, which were denied, and by what rule.
    expect(timeline).toMatch(/ask\s*→\s*once\s+by flag/);
    expect(timeline).toMatch(/rm -rf figures-report.*\sdeny\s.*The host denies 'Bash\(rm:\*\)'/);
    expect(timeline).toMatch(/request 1\b/);
    expect(timeline).toMatch(/in \d+, out \d+, cache read \d+, cache write \d+/);
  });

  it("a tool call's decision links to its audit record, and the record back to the call", async () => {
    const page = await open(`/sessions/${session}`);
    // The call --deny refused: the 7th of the script, so the model's id toolu_7.
    const index = SESSION_CALLS.findIndex(
      (call) => (call.input as { command?: string }).command === 'rm -rf figures-report',
    );
    const id = `toolu_${index + 1}`;
    const row = page.locator(`#timeline tr[id="call-${id}"]`);
    expect(await row.textContent()).toContain('rm -rf figures-report');
    const records = row.locator('.decision-records a');
    expect(await records.count()).toBeGreaterThan(0);
    const decision = records.first();
    expect(await decision.textContent()).toMatch(/^permission-decide #\d+$/);
    await decision.click();
    await page.waitForURL(/\/audit\?/);
    const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
    const record = page.locator(`#records tr[id="${anchor}"]`);
    expect(await record.textContent()).toMatch(/permission-decide[\s\S]*deny/);
    await record.locator('a.tool-call-link').click();
    await page.waitForURL(/\/sessions\//);
    expect(new URL(page.url()).hash).toBe(`#call-${id}`);
    // Every call that was decided on has its records; the calls are those of the script.
    const linked = await page
      .locator('#timeline tr.tool-call')
      .evaluateAll((rows) =>
        rows
          .filter((item) => item.querySelector('.decision-records a') !== null)
          .map((item) => item.id),
      );
    expect(linked.length).toBeGreaterThan(1);
    for (const item of linked) expect(item).toMatch(/^call-toolu_\d+$/);
  });

  it('Audit: the records of the session in order, and the chain verified', async () => {
    const page = await open('/audit', { session }, 'audit');
    expect(await visible(page, '#audit-verdict')).toContain('chain verified: intact');
    const seqs = await page
      .locator('#records tbody tr td:first-child')
      .evaluateAll((cells) => cells.map((cell) => Number(cell.textContent)));
    expect(seqs.length).toBeGreaterThan(10);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    expect(await visible(page, '#records')).toContain('context-compact');
  });

  it('Audit: a record altered on disk shows as the first broken link', async () => {
    const log = join(home, '.skillhost', 'audit.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.includes('"event":"resource-read"'));
    const copy = tempDir('skillhost-ui-broken-');
    mkdirSync(join(copy, '.skillhost'), { recursive: true });
    appendFileSync(
      join(copy, '.skillhost', 'audit.jsonl'),
      lines
        .map((line, at) => (at === index ? line.replace('checklist', 'checkl1st') : line))
        .join('\n'),
    );
    const broken = await startUiProcess(copy);
    try {
      const page = await context.newPage();
      const base = new URL(broken.url);
      await page.goto(
        `${base.origin}/audit?${new URLSearchParams({ token: base.searchParams.get('token') as string })}`,
      );
      expect(await visible(page, '#audit-verdict')).toContain('NOT intact');
      expect(await visible(page, '#chains')).toContain(
        `audit.jsonl:${index + 1}: its content does not match its hash (altered)`,
      );
      await page.screenshot({ path: join(artifacts, 'audit-broken.png') });
    } finally {
      await broken.stop();
    }
  });

  it('follows an open session as it runs (server-sent events)', async () => {
    const file = join(home, '.skillhost', 'sessions', 'live-session.jsonl');
    const line = (record: Record<string, unknown>) =>
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    line({
      type: 'session',
      id: 'live-session',
      agent: 'code-analyst',
      provider: 'anthropic',
      model: 'm',
      created: '2026-01-01T00:00:00Z',
    });
    const step = (n: number) =>
      line({
        type: 'event',
        event: {
          type: 'step',
          step: n,
          time: '2026-01-01T00:00:01Z',
          contextTokens: 1000 * n,
          contextWindow: 8000,
          compactThreshold: 5000,
        },
      });
    step(1);
    const page = await open('/sessions/live-session');
    expect(await page.locator('#context-chart circle.point').count()).toBe(1);
    // A log without the catalog's record (as older ones are) says so, and still shows the rest.
    expect(await visible(page, '#catalog-not-recorded')).toContain('Not recorded');
    step(2);
    await page.locator('#context-chart circle.point').nth(1).waitFor({ timeout: 20_000 });
    line({
      type: 'event',
      event: { type: 'end', status: 'done', steps: 2, time: '2026-01-01T00:00:02Z' },
    });
    await page.getByText('after 2 steps').waitFor({ timeout: 20_000 });
    expect(await page.locator('#context-chart circle.point').count()).toBe(2);
    // A run's end is not the session's: a resumed run (or a chat's next turn) shows as it comes.
    line({ type: 'resume', time: '2026-01-01T00:01:00Z', provider: 'anthropic', model: 'm' });
    step(3);
    await page.locator('#context-chart circle.point').nth(2).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(artifacts, 'session-live.png') });
  });
});
