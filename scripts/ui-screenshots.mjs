// `npm run ui:screenshots`: the README's pictures of `skillhost ui` (docs/ui/*.png, 1280×800),
// made from a session of the example agent with a compaction (scripts/ui-session.mjs) in a
// temporary home, through Debian's Chromium (scripts/ui-browser.mjs).

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, startUiProcess } from './ui-browser.mjs';
import { runUiSession } from './ui-session.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'ui');
mkdirSync(out, { recursive: true });
const home = mkdtempSync(join(tmpdir(), 'skillhost-ui-screenshots-'));
try {
  const session = await runUiSession(home);
  const ui = await startUiProcess(home);
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
    for (const [name, url] of shots) {
      await page.goto(url);
      await page.screenshot({ path: join(out, `${name}.png`) });
      console.log(`docs/ui/${name}.png`);
    }
    // The session's timeline, from its heading down.
    await page.goto(at(`/sessions/${session}`));
    await page
      .locator('#timeline')
      .evaluate((table) => table.previousElementSibling?.scrollIntoView());
    await page.screenshot({ path: join(out, 'timeline.png') });
    console.log('docs/ui/timeline.png');
  } finally {
    await browser.close();
    await ui.stop();
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
