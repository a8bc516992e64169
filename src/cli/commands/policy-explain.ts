import { listSkillFiles, loadScript, unusableReason } from '../../internal.js';
import type { RegistryEntry } from '../../node/index.js';
import {
  type ExplainedCall,
  type ExplainOptions,
  type ExplainScript,
  explainGrants,
  explainScripts,
  parseAllowedTools,
  SkillhostError,
} from '../../node/index.js';
import type { ParsedArgs } from '../args.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import { openRegistry } from '../registry-options.js';
import { approvalStore, policyConfig } from '../runtime-options.js';

/** Most scripts looked at, and how deep under scripts/. */
const MAX_SCRIPTS = 200;
const MAX_DEPTH = 8;

/** The skill's scripts that could run (interpreter and hash), and those that could not, with why. */
export function skillScripts(
  entry: RegistryEntry,
  deps: CliDeps,
): { scripts: ExplainScript[]; refused: Array<{ script: string; code: string }> } {
  const scripts: ExplainScript[] = [];
  const refused: Array<{ script: string; code: string }> = [];
  const { files } = listSkillFiles(deps.fs, entry.directory, MAX_SCRIPTS, MAX_DEPTH);
  for (const file of files) {
    if (file.kind === 'directory' || !file.path.startsWith('scripts/')) continue;
    try {
      const loaded = loadScript(deps.fs, deps.hash, entry, file.path, []);
      scripts.push({
        path: loaded.path,
        interpreter: loaded.interpreter,
        contentHash: loaded.contentHash,
      });
    } catch (error) {
      refused.push({
        script: file.path,
        code: SkillhostError.isInstance(error) ? error.code : 'INTERNAL_ERROR',
      });
    }
  }
  return { scripts, refused };
}

/** What `skillhost run` does, in words. */
function outcome(call: ExplainedCall): string {
  if (call.effect === 'allow') {
    if (call.decision !== 'allow') return `runs (shadow mode: the policy would ${call.decision})`;
    return call.rule === 'approval'
      ? 'runs without asking (approved earlier: "always")'
      : 'runs without asking (approved by policy)';
  }
  return call.effect === 'ask'
    ? 'asks for confirmation (PERMISSION_REQUIRED when not interactive)'
    : 'is refused (PERMISSION_DENIED)';
}

/** Shown in text: the first rows, then how many more. */
const SHOWN_EXCEPTIONS = 6;

/**
 * `skillhost policy explain NAME`: entry by entry, what the skill's allowed-tools requests and what
 * the host's options make of it, and what `skillhost run` does with each of its scripts.
 */
export function explain(args: ParsedArgs, name: string, io: CliIO, deps: CliDeps): number {
  const { registry } = openRegistry(args, deps);
  const entry = registry.resolve(name);
  if (entry === undefined) {
    io.stderr.write(
      `skillhost: error SKILL_NOT_FOUND: no skill named ${JSON.stringify(printable(name))}\n`,
    );
    return 1;
  }
  const requested = entry.metadata?.allowedTools;
  const config = policyConfig(args);
  const usable = unusableReason(entry.status) === undefined;
  const { scripts, refused } = usable ? skillScripts(entry, deps) : { scripts: [], refused: [] };
  const store = approvalStore(deps);
  const options: ExplainOptions = {
    trusted: entry.source.trust === 'trusted',
    hostTools: config.tools,
    deny: config.deny ?? [],
    narrow: config.narrow === true,
    shadow: config.shadow === true,
    scripts,
    approved: (key) => store.has(key),
    skill: { address: entry.address, source: entry.source.id },
  };
  const explanations = explainGrants(requested, options);
  const runs = explainScripts(requested, options);
  const tooBroad = parseAllowedTools(requested ?? '').problems.filter(
    (problem) => problem.kind === 'too-broad',
  );
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify(
        {
          skill: entry.address,
          trust: entry.source.trust,
          status: entry.status,
          requested: requested ?? null,
          hostTools: config.tools,
          deny: config.deny ?? [],
          narrow: config.narrow === true,
          shadow: config.shadow === true,
          entries: explanations,
          scripts: [...runs, ...refused],
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const lines = [`${printable(entry.address)} (${entry.source.trust}, ${entry.status})`];
  if (requested === undefined || requested.trim() === '') {
    lines.push('  allowed-tools: (none) — it pre-approves nothing; calls follow the host policy.');
  } else {
    lines.push(`  allowed-tools: ${printable(requested)}`);
    for (const item of explanations) {
      const tools = item.tools.length === 0 ? '' : ` → ${item.tools.join(', ')}`;
      lines.push(
        `  ${item.status.padEnd(12)} ${printable(item.entry)}${tools}: ${printable(item.reason)}`,
      );
      const exceptions = item.exceptions ?? [];
      if (exceptions.length > 0) {
        const more = exceptions.length - SHOWN_EXCEPTIONS;
        lines.push(
          `                 still asks: ${printable(exceptions.slice(0, SHOWN_EXCEPTIONS).join(', '))}${more > 0 ? ` and ${more} more (--json lists them)` : ''}`,
        );
      }
      for (const call of item.runs ?? [])
        lines.push(
          `                 skillhost run ${printable(call.call)}: ${outcome(call)}${call.decision === 'allow' ? '' : ` — ${printable(call.reason)}`}`,
        );
    }
    if (tooBroad.length > 0 && config.narrow !== true) {
      lines.push(
        '  (Too-broad entries would only matter with --narrow, where they keep their tool available.)',
      );
    }
  }
  if (!usable) {
    lines.push(
      `  skillhost run: refused — the skill is ${entry.status}, so it cannot be activated.`,
    );
  } else if (runs.length + refused.length > 0) {
    lines.push('  Scripts, as skillhost run would run them under these options:');
    for (const call of runs)
      lines.push(`    ${printable(call.call)}: ${outcome(call)} — ${printable(call.reason)}`);
    for (const item of refused)
      lines.push(`    ${printable(item.script)}: cannot run (${item.code})`);
  }
  lines.push(
    config.narrow === true
      ? '  With --narrow, while this skill is active only the tools it lists can be used.'
      : '  A skill never adds a tool: anything not granted above asks for confirmation, and the host may deny it.',
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
