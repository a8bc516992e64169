import { listSkillFiles, skillFindings, unusableReason } from '../../internal.js';
import {
  explainGrants,
  type GrantStatus,
  type RegistryEntry,
  readSkillDirectory,
  SkillhostError,
} from '../../node/index.js';
import { skillScripts } from '../commands/policy-explain.js';
import { lockStates } from '../installed.js';
import { openRegistry } from '../registry-options.js';
import { approvalStore, policyConfig } from '../runtime-options.js';
import type { UiContext } from './context.js';
import { type Html, html, link, page } from './html.js';
import type { PageResult } from './server.js';

/** What the Skills page calls a skill: its registry status, or "modified" against the lockfile. */
function statusTag(entry: RegistryEntry, lock: 'locked' | 'modified' | undefined): Html {
  return html`<span class="tag ${entry.status}">${entry.status}</span>${
    lock === 'modified'
      ? html` <span class="tag modified" title="its files differ from skills-lock.json">modified</span>`
      : lock === 'locked'
        ? html` <span class="tag">locked</span>`
        : ''
  }`;
}

function findingRows(entry: RegistryEntry): Html {
  const findings = skillFindings(entry);
  if (findings.length === 0) return html`<span class="dim">none</span>`;
  return html`${findings.map(
    (finding) =>
      html`<div><span class="${finding.severity === 'error' ? 'bad' : 'warn'}">${finding.severity} ${finding.code}</span>: ${finding.message}${finding.line > 0 ? html` <span class="dim">(line ${finding.line})</span>` : ''}</div>`,
  )}`;
}

/** Every source with its trust, and every skill with its status and diagnostics. */
export function skillsPage(context: UiContext): PageResult {
  const { registry, projectDir, projectTrusted } = openRegistry(context.args, context.deps);
  const locks = lockStates(projectDir, context.deps);
  const entries = registry.entries;
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
  const body = html`<h1>Skills</h1>
<div class="summary"><div>${entries.length} skills</div>${[...counts].map(([status, amount]) => html`<div><span class="tag ${status}">${status}</span> ${amount}</div>`)}<div>project ${projectDir} (${projectTrusted ? 'trusted' : 'not trusted'})</div></div>
<h2>Sources</h2>
<table><thead><tr><th>id</th><th>kind</th><th>trust</th><th>enabled</th><th>folder</th></tr></thead><tbody>
${registry.sources.map((source) => html`<tr><td>${source.id}</td><td>${source.kind}${source.label === undefined ? '' : html` <span class="dim">${source.label}</span>`}</td><td><span class="tag ${source.trust === 'trusted' ? 'allow' : 'untrusted'}">${source.trust}</span></td><td>${source.enabled ? 'yes' : 'no'}</td><td><code>${source.root}</code></td></tr>`)}
</tbody></table>
<h2>Skills</h2>
<table id="skills"><thead><tr><th>name</th><th>source</th><th>status</th><th>description</th><th>diagnostics</th></tr></thead><tbody>
${entries.map(
  (entry) =>
    html`<tr><td><a href="${link(context.token, '/skill', { address: entry.address })}">${entry.name}</a>${entry.shadowedBy === undefined ? '' : html`<div class="dim">${entry.identical ? 'identical to' : 'shadowed by'} ${entry.shadowedBy}</div>`}</td><td>${entry.source.id} <span class="tag ${entry.source.trust === 'trusted' ? 'allow' : 'untrusted'}">${entry.source.trust}</span></td><td>${statusTag(entry, locks.get(entry.directory))}</td><td>${entry.metadata?.description ?? ''}</td><td>${findingRows(entry)}</td></tr>`,
)}
</tbody></table>
${registry.diagnostics.length === 0 ? '' : html`<h2>Discovery</h2>${registry.diagnostics.map((finding) => html`<div class="warn">${finding.severity} ${finding.code}: ${finding.message} <code>${finding.file}</code></div>`)}`}`;
  return {
    status: 200,
    html: page({
      title: 'Skills',
      section: 'skills',
      token: context.token,
      home: context.deps.homeDir,
      body,
    }),
  };
}

const MAX_FILES = 500;

/** The colour of each verdict on an allowed-tools entry. */
const GRANT_TAGS: Readonly<Record<GrantStatus, string>> = {
  granted: 'allow',
  limited: 'ask',
  overruled: 'ask',
  'narrows-only': 'ask',
  untrusted: 'untrusted',
  unavailable: 'deny',
  denied: 'deny',
  invalid: 'deny',
};
const MAX_DEPTH = 8;

/** One skill: frontmatter, body, files, what its allowed-tools requests and what the policy grants. */
export function skillPage(context: UiContext, address: string): PageResult {
  const { registry, projectDir } = openRegistry(context.args, context.deps);
  const entry =
    registry.entries.find((candidate) => candidate.address === address) ??
    registry.resolve(address);
  if (entry === undefined) return { status: 404, message: `No skill ${address}` };
  const lock = lockStates(projectDir, context.deps).get(entry.directory);
  const read = readSkillDirectory(context.deps.fs, entry.directory, { level: 'full' });
  const metadata = read.skill?.metadata ?? entry.metadata;
  const listing = listSkillFiles(context.deps.fs, entry.directory, MAX_FILES, MAX_DEPTH);
  const config = policyConfig(context.args);
  const usable = unusableReason(entry.status) === undefined;
  let scripts: ReturnType<typeof skillScripts>['scripts'] = [];
  try {
    if (usable) scripts = skillScripts(entry, context.deps).scripts;
  } catch (error) {
    if (!SkillhostError.isInstance(error)) throw error;
  }
  const store = approvalStore(context.deps);
  const grants = explainGrants(metadata?.allowedTools, {
    trusted: entry.source.trust === 'trusted',
    hostTools: config.tools,
    deny: config.deny ?? [],
    narrow: config.narrow === true,
    shadow: config.shadow === true,
    scripts,
    approved: (key) => store.has(key),
    skill: { address: entry.address, source: entry.source.id },
  });
  const fields: Array<[string, string | undefined]> = [
    ['name', metadata?.name],
    ['description', metadata?.description],
    ['license', metadata?.license],
    ['compatibility', metadata?.compatibility],
    ['allowed-tools', metadata?.allowedTools],
    ...Object.entries(metadata?.metadata ?? {}).map(([key, value]): [string, string] => [
      `metadata.${key}`,
      value,
    ]),
  ];
  const body = html`<h1>Skill ${entry.name}</h1>
<div class="summary"><div>${entry.address}</div><div>${statusTag(entry, lock)}</div><div>source ${entry.source.id} <span class="tag ${entry.source.trust === 'trusted' ? 'allow' : 'untrusted'}">${entry.source.trust}</span></div><div><code>${entry.skillFile}</code></div></div>
<h2>Diagnostics</h2>${findingRows(entry)}
<h2>Frontmatter</h2>
<table><tbody>${fields
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => html`<tr><th>${key}</th><td>${value}</td></tr>`)}</tbody></table>
<h2>allowed-tools: requested and granted</h2>
${
  grants.length === 0
    ? html`<p class="dim">No allowed-tools: every tool call asks, as the policy says for calls no grant covers.</p>`
    : html`<table id="grants"><thead><tr><th>requested</th><th>tools</th><th>policy</th><th>why</th><th>a call it covers</th></tr></thead><tbody>${grants.map(
        (grant) =>
          html`<tr><td><code>${grant.entry}</code></td><td>${grant.tools.join(', ')}</td><td><span class="tag ${GRANT_TAGS[grant.status]}">${grant.status}</span></td><td>${grant.reason}</td><td>${grant.example === undefined ? '' : html`<code>${grant.example.call}</code> → <span class="tag ${grant.example.effect}">${grant.example.effect}</span> <span class="dim">(${grant.example.rule})</span>`}</td></tr>`,
      )}</tbody></table>`
}
<h2>Files</h2>
<table><tbody>${listing.files.map(
    (file) =>
      html`<tr><td><code>${file.path}${file.kind === 'directory' ? '/' : ''}</code></td><td class="num">${file.kind === 'directory' ? '' : `${file.size ?? ''}`}</td></tr>`,
  )}</tbody></table>${listing.unlisted > 0 ? html`<p class="dim">${listing.unlisted} more not listed</p>` : ''}
<h2>Body</h2>
<pre id="body">${read.skill?.body ?? '(not readable: see the diagnostics)'}</pre>`;
  return {
    status: 200,
    html: page({
      title: entry.name,
      section: 'skills',
      token: context.token,
      home: context.deps.homeDir,
      body,
    }),
  };
}
