import { readAgent, SkillhostError } from '../../node/index.js';
import { agentBases } from '../commands/agent.js';
import { openRegistry } from '../registry-options.js';
import type { UiContext } from './context.js';
import { type Html, html, link } from './html.js';

type Event = Record<string, unknown>;

/**
 * The skills a session's model was given, as the agent and the skill folders are now: the
 * agent's preloaded skills (in full in its system prompt), the progressive ones its catalog
 * lists (an agent's catalog has no budget: each in full; the Catalog page shows one under a
 * budget), and those the session activated, with the request each first came at.
 */
export function offeredSkills(
  context: UiContext,
  agentName: string,
  events: readonly Event[],
): Html {
  let preloaded: readonly string[] = [];
  let deferred: readonly string[] | undefined;
  let problem = '';
  try {
    const agent = readAgent(context.deps.fs, agentBases(context.args, context.deps), agentName);
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
  const names = (list: readonly string[]) =>
    list.length === 0 ? html`<span class="dim">none</span>` : html`${list.join(', ')}`;
  return html`<h2>Skills the model was given</h2>
${problem === '' ? '' : html`<p class="warn">${problem}</p>`}
<table id="offered"><tbody>
<tr><th>in the system prompt</th><td>${names(preloaded)}</td></tr>
<tr><th>in its catalog</th><td>${names(catalog)} <span class="dim">(the agent's catalog has no budget; <a href="${link(context.token, '/catalog')}">the Catalog page</a> shows one under a budget)</span></td></tr>
<tr><th>activated</th><td>${activated.size === 0 ? html`<span class="dim">none</span>` : [...activated].map(([name, at], index) => html`${index === 0 ? '' : ', '}${name} <span class="dim">(request ${at})</span>`)}</td></tr>
</tbody></table>
<p class="dim">As the agent and the skill folders are now.</p>`;
}
