/**
 * HTML made safe by construction: every value put into a page goes through `html`'s escaping
 * unless it is already `Html` made here. Text from skills, sessions and audit records can hold
 * markup, scripts or characters that reorder what is read (bidirectional controls): escaped, it
 * is shown as the characters it holds, never run or read as markup.
 */

const HTML_BRAND = Symbol('html');

/** A piece of markup this module made (escaped text, or a template of them). */
export interface Html {
  readonly [HTML_BRAND]: true;
  readonly markup: string;
}

function markup(text: string): Html {
  return { [HTML_BRAND]: true, markup: text };
}

export function isHtml(value: unknown): value is Html {
  return typeof value === 'object' && value !== null && HTML_BRAND in value;
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Control characters (but tab and line feed) and bidirectional controls: shown as `\uXXXX`, so
 * that a name cannot pretend to be another by reordering its letters on the screen.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Text as HTML text (or an attribute value in double quotes): markup escaped, invisible characters shown. */
export function escapeHtml(text: string): string {
  return text
    .replace(/[&<>"'`]/g, (character) => ENTITIES[character] as string)
    .replace(
      INVISIBLE,
      (character) =>
        `\\u${(character.codePointAt(0) as number).toString(16).padStart(4, '0').toUpperCase()}`,
    );
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map((item: Value) => render(item)).join('');
  if (isHtml(value)) return value.markup;
  return escapeHtml(String(value));
}

/** A template whose values are escaped (`Html` values and lists of them are kept as they are). */
export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return markup(text);
}

/** Markup from this project's own code (never from data): the SVG of a chart, say. */
export function trusted(text: string): Html {
  return markup(text);
}

/** The token every link carries (the server refuses a request without it). */
export function link(token: string, path: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...query, token });
  return `${path}?${params.toString()}`;
}

/** One number with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

const STYLE = `
:root{color-scheme:light;--ink:#1d2430;--dim:#5b6575;--line:#d9dee6;--bg:#f6f7f9;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--accent:#0b5cad}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
header{display:flex;gap:18px;align-items:center;padding:10px 20px;background:#fff;border-bottom:1px solid var(--line)}
header strong{font-size:15px}nav a{margin-right:14px;color:var(--accent);text-decoration:none}nav a.here{font-weight:600;text-decoration:underline}
main{padding:16px 20px;max-width:1240px}h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:18px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f5;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:#fff;border:1px solid var(--line);padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto}
.tag{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;background:#eef1f5}.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.dim{color:var(--dim)}
.tag.active,.tag.full,.tag.allow,.tag.intact{background:#dafbe1;color:var(--ok)}.tag.shadowed,.tag.disabled,.tag.name,.tag.short,.tag.truncated,.tag.ask{background:#fff8c5;color:var(--warn)}
.tag.skipped,.tag.untrusted,.tag.hidden,.tag.deny,.tag.broken,.tag.demoted,.tag.modified{background:#ffebe9;color:var(--bad)}
.bar{background:#eef1f5;height:12px;width:260px;border-radius:3px;overflow:hidden}.bar span{display:block;height:100%;background:var(--accent)}
.summary{display:flex;gap:16px;flex-wrap:wrap;margin:8px 0}.summary div{background:#fff;border:1px solid var(--line);padding:6px 10px;border-radius:4px}
form{margin:8px 0}form label{margin-right:12px}.timeline td:first-child{white-space:nowrap;color:var(--dim)}
svg text{font:11px system-ui,sans-serif;fill:var(--dim)}#skills td:first-child,.decisions td:nth-child(2),.decisions td:nth-child(3){white-space:nowrap}
`;

/**
 * `text` with the home folder written `~` wherever a path starts with it (`/home/me/project` →
 * `~/project`), as a shell would: the pages say where things are without naming the machine's
 * folders. `/home/me2` is not under `/home/me`; a home of `/` or none leaves the text as it is.
 */
export function homeRelative(text: string, home: string | undefined): string {
  const base = home?.replace(/\/+$/, '') ?? '';
  if (base === '') return text;
  const pattern = new RegExp(
    `(^|[^A-Za-z0-9._~/-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$|[^A-Za-z0-9._~-])`,
    'g',
  );
  return text.replace(pattern, '$1~');
}

/** Where to put the one script the pages use (live updates of an open session). */
export const SCRIPT_PATH = '/ui.js';

/**
 * The page around a body: the navigation, the style inline (the policy allows inline styles,
 * never inline scripts; every value is escaped, so no style but this one gets in), and no script
 * but the one served from this origin, on the pages that follow a running session.
 */
export function page(options: {
  readonly title: string;
  readonly section: 'skills' | 'catalog' | 'sessions' | 'audit';
  readonly token: string;
  readonly body: Html;
  /** The server-sent events URL this page follows, when it shows something still running. */
  readonly live?: string;
  /** The user's home folder: paths under it are shown as `~/…` (see `homeRelative`). */
  readonly home?: string;
}): string {
  const nav = (['skills', 'catalog', 'sessions', 'audit'] as const).map(
    (section) =>
      html`<a href="${link(options.token, `/${section}`)}" class="${section === options.section ? 'here' : ''}">${section[0]?.toUpperCase()}${section.slice(1)}</a>`,
  );
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${options.title} · skillhost ui</title><style>${trusted(STYLE)}</style></head><body${options.live === undefined ? '' : trusted(` data-live="${escapeHtml(options.live)}"`)}><header><strong>skillhost ui</strong><nav>${nav}</nav><span class="dim">read-only</span></header><main id="main">${trusted(homeRelative(options.body.markup, options.home === undefined ? undefined : escapeHtml(options.home)))}</main>${options.live === undefined ? '' : trusted(`<script src="${escapeHtml(link(options.token, SCRIPT_PATH))}"></script>`)}</body></html>`
      .markup
  }`;
}

/**
 * The one script: follows the server-sent events of a session and, on each change, loads the
 * page again and swaps its main part in (the new markup comes from the same server, escaped as
 * every page is). It keeps following after a run's end: a chat's next turn and a resumed run
 * write to the same log, and the page shows them as they come.
 */
export const LIVE_SCRIPT = `(() => {
  const url = document.body.dataset.live;
  if (!url) return;
  const source = new EventSource(url);
  source.addEventListener('update', async () => {
    const response = await fetch(location.href, { credentials: 'same-origin' });
    if (!response.ok) return;
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    const main = next.getElementById('main');
    if (main) document.getElementById('main').replaceChildren(...main.childNodes);
  });
})();
`;
