// `npm run ui:screenshots`: the README's pictures of `skillhost ui` (docs/ui/*.png, 1280×800),
// made from a session of the example agent with a compaction (scripts/ui-session.mjs) in a
// temporary home, through Debian's Chromium (scripts/ui-browser.mjs). The example skills and
// agents are copied to ~/project of that home, and the pages show paths under the home as ~/…,
// so no folder of the machine that made them appears.

import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startUiProcess } from './ui-browser.mjs';
import { runUiSession } from './ui-session.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'ui');
mkdirSync(out, { recursive: true });
const home = mkdtempSync(join(tmpdir(), 'skillhost-ui-screenshots-'));
const project = join(home, 'project');
for (const folder of ['skills', 'agents'])
  cpSync(join(root, 'examples', folder), join(project, folder), { recursive: true });
try {
  const session = await runUiSession(home, { project });
  const ui = await startUiProcess(home, [], { project });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const token = new URL(ui.url).searchParams.get('token');
    const at = (path, query = {}) =>
      `${new URL(ui.url).origin}${path}?${new URLSearchParams({ ...query, token })}`;
    const shots = [
      ['skills', at('/skills')],
      ['catalog', at('/catalog', { budget: '100', format: 'xml' })],
      ['session', at(`/sessions/${session}`)],
      ['audit', at('/audit', { session })],
    ];
    const machine = [root, tmpdir(), '/work/', '/tmp/'];
    for (const [name, url] of shots) {
      await page.goto(url);
      // biome-ignore lint/performance/useDomNodeTextContent: what the picture shows is checked.
      const shown = await page.locator('main').innerText();
      const named = machine.filter((folder) => shown.includes(folder));
      if (named.length > 0) throw new Error(`${name}: the page names ${named.join(', ')}`);
      await page.screenshot({ path: join(out, `${name}.png`) });
      console.log(`docs/ui/${name}.png`);
    }
    // The session's context chart and compactions, then its timeline, each from its heading down.
    for (const [name, selector] of [
      ['context', '#context-chart'],
      ['timeline', '#timeline'],
    ]) {
      await page.goto(at(`/sessions/${session}`));
      await page
        .locator(selector)
        .evaluate((element) => element.previousElementSibling?.scrollIntoView());
      await page.screenshot({ path: join(out, `${name}.png`) });
      console.log(`docs/ui/${name}.png`);
    }
  } finally {
    await browser.close();
    await ui.stop();
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
