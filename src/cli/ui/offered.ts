import { readAgent, SkillhostError } from '../../node/index.js';
import { agentBases } from '../commands/agent.js';
import type { SessionCatalog, SessionState } from '../commands/session-log.js';
import { openRegistry } from '../registry-options.js';
import { decisionTable } from './catalog-page.js';
import type { UiContext } from './context.js';
import { count, type Html, html, link } from './html.js';

type Event = Record<string, unknown>;

const names = (list: readonly string[]) =>
  list.length === 0 ? html`<span class="dim">none</span>` : html`${list.join(', ')}`;

/** Each skill activated in the session, with the request it first came at. */
function activations(events: readonly Event[]): Html {
  const activated = new Map<string, number>();
  let step = 0;
  for (const event of events) {
    if (event.type === 'step') step += 1;
    if (
      event.type === 'skill-state' &&
      typeof event.skill === 'string' &&
      !activated.has(event.skill)
    )
      activated.set(event.skill, step);
  }
  return activated.size === 0
    ? html`<span class="dim">none</span>`
    : html`${[...activated].map(([name, at], index) => html`${index === 0 ? '' : ', '}${name} <span class="dim">(request ${at})</span>`)}`;
}

/** The catalog a run's model was shown, from the session's log. */
function recordedCatalog(catalog: SessionCatalog, runs: string): Html {
  const cut = catalog.skills.filter((skill) => skill.level !== 'full').length;
  return html`<div class="summary recorded-catalog"><div>${runs}</div><div>format ${catalog.format}</div><div>${catalog.budget === null ? 'no budget' : html`budget ${count(catalog.budget)} tokens`}</div><div>${count(catalog.tokens)} tokens (${catalog.exact ? 'counted' : 'estimated'})</div><div>${catalog.skills.length} skills, ${cut} shortened or hidden</div><div title="${catalog.hash}">sha256 <code>${catalog.hash.slice(0, 12)}</code></div><div>${catalog.time.slice(0, 19).replace('T', ' ')}</div></div>
${catalog.explain.map((line) => html`<div>${line}</div>`)}
${catalog.skills.length === 0 ? html`<p class="dim">No catalog: no skill beyond the preloaded ones.</p>` : decisionTable(`session-catalog-${catalog.run}`, catalog.skills, Math.max(catalog.budget ?? catalog.tokens, 1), catalog.budget === null ? 'catalog' : 'budget')}`;
}

/** The runs each recorded catalog was shown in: one table per catalog that differs from the one before. */
function recordedCatalogs(catalogs: readonly SessionCatalog[]): Html {
  const groups: Array<{ catalog: SessionCatalog; runs: number[] }> = [];
  for (const catalog of catalogs) {
    const last = groups.at(-1);
    if (last !== undefined && last.catalog.hash === catalog.hash) last.runs.push(catalog.run);
    else groups.push({ catalog, runs: [catalog.run] });
  }
  return html`${groups.map(({ catalog, runs }) =>
    recordedCatalog(catalog, `${runs.length === 1 ? 'run' : 'runs'} ${runs.join(', ')}`),
  )}`;
}

/**
 * The skills a session's model was given: as the session's log recorded them when each run
 * started (the preloaded skills, the catalog with each skill's level and why), and the skills
 * the session activated. A log written before the catalog was recorded says so, and shows the
 * agent and the skill folders as they are now.
 */
export function offeredSkills(context: UiContext, state: SessionState): Html {
  const activated = activations(state.events);
  const first = state.catalogs[0];
  if (first !== undefined) {
    const last = state.catalogs.at(-1) ?? first;
    return html`<h2>Skills the model was given</h2>
<table id="offered"><tbody>
<tr><th>in the system prompt</th><td>${names(last.preloaded)}</td></tr>
<tr><th>in its catalog</th><td>${names(last.skills.map((skill) => skill.name))}</td></tr>
<tr><th>activated</th><td>${activated}</td></tr>
</tbody></table>
<h2>The catalog the model saw</h2>
<p class="dim" id="catalog-recorded">As recorded in the session's log when each run started. <a href="${link(context.token, '/catalog')}">The Catalog page</a> shows today's skills under a budget you choose.</p>
${recordedCatalogs(state.catalogs)}`;
  }
  let preloaded: readonly string[] = [];
  let deferred: readonly string[] | undefined;
  let problem = '';
  try {
    const agent = readAgent(context.deps.fs, agentBases(context.args, context.deps), state.agent);
    preloaded = agent.manifest.skills;
    deferred = agent.manifest.deferredSkills;
  } catch (error) {
    if (!SkillhostError.isInstance(error)) throw error;
    problem = `${error.code}: ${error.message} (pass the agent's folder with --agents DIR)`;
  }
  const { registry } = openRegistry(context.args, context.deps);
  const catalog = registry
    .active()
    .filter(
      (entry) =>
        !preloaded.includes(entry.name) &&
        (deferred === undefined || deferred.includes(entry.name)),
    )
    .map((entry) => entry.name);
  return html`<h2>Skills the model was given</h2>
<p class="warn" id="catalog-not-recorded">Not recorded: this session's log was written before skillhost kept what the model was shown. Below, the agent and the skill folders as they are now.</p>
${problem === '' ? '' : html`<p class="warn">${problem}</p>`}
<table id="offered"><tbody>
<tr><th>in the system prompt</th><td>${names(preloaded)}</td></tr>
<tr><th>in its catalog</th><td>${names(catalog)} <span class="dim">(an agent's catalog has no budget; <a href="${link(context.token, '/catalog')}">the Catalog page</a> shows one under a budget)</span></td></tr>
<tr><th>activated</th><td>${activated}</td></tr>
</tbody></table>`;
}
