// Which model examples/agent-run.mjs runs the example agent on: the first that is usable here,
// found without calling any remote service. Order: a logged-in Claude Code (`claude` on PATH and
// its login on disk), ANTHROPIC_API_KEY, OPENAI_API_KEY, an OpenAI-compatible server on this
// machine, and without any of them the scripted local model, labelled as such.

import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The usual ports of Ollama, LM Studio and llama.cpp's server, on loopback only. */
export const LOCAL_SERVERS = [
  'http://127.0.0.1:11434/v1',
  'http://127.0.0.1:1234/v1',
  'http://127.0.0.1:8080/v1',
];

/** The program's path when an executable file of that name is on PATH. */
export function onPath(name, env) {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const file = join(folder, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not there, or not runnable.
    }
  }
  return undefined;
}

function nonEmptyFile(file) {
  try {
    return statSync(file).isFile() && statSync(file).size > 0;
  } catch {
    return false;
  }
}

function hasOauthAccount(file) {
  try {
    const config = JSON.parse(readFileSync(file, 'utf8'));
    return config !== null && typeof config === 'object' && config.oauthAccount != null;
  } catch {
    return false;
  }
}

/**
 * How Claude Code is logged in, read from disk and the environment only (no request, no
 * `claude` run): a long-lived token (`claude setup-token`) in CLAUDE_CODE_OAUTH_TOKEN, the
 * credentials file of `/login` (Linux, and macOS without the keychain), or the account its
 * config records after a login (macOS keeps the token in the keychain). Undefined: no login found.
 * An API key alone is not counted: it goes to the anthropic provider, without a CLI between.
 */
export function claudeLogin(env, home) {
  if (env.CLAUDE_CODE_OAUTH_TOKEN) return 'CLAUDE_CODE_OAUTH_TOKEN';
  const folder = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  if (nonEmptyFile(join(folder, '.credentials.json')))
    return `its credentials in ${join(folder, '.credentials.json')}`;
  for (const file of [
    ...(env.CLAUDE_CONFIG_DIR ? [join(env.CLAUDE_CONFIG_DIR, '.claude.json')] : []),
    join(home, '.claude.json'),
  ])
    if (hasOauthAccount(file)) return `the account in ${file}`;
  return undefined;
}

/** An OpenAI-compatible server on localhost, and its first model, if one answers quickly. */
export async function localServer(servers = LOCAL_SERVERS) {
  for (const base of servers) {
    try {
      const response = await fetch(`${base}/models`, { signal: AbortSignal.timeout(300) });
      if (!response.ok) continue;
      const body = await response.json();
      const model = body?.data?.[0]?.id;
      if (typeof model === 'string') return { base, model };
    } catch {
      // Nothing listens there.
    }
  }
  return undefined;
}

/**
 * The provider to use: `{ kind, label, args }`, args being `agent run`'s options for it; kind
 * `scripted` when nothing usable was found (the caller starts the scripted model then).
 * `env` and `home` are those to look in; `findLocal` finds a local server (default: the usual
 * ports on 127.0.0.1).
 */
export async function chooseProvider({
  env = process.env,
  home = env.HOME || homedir(),
  findLocal = localServer,
} = {}) {
  const claude = onPath('claude', env);
  const login = claude === undefined ? undefined : claudeLogin(env, home);
  if (claude !== undefined && login !== undefined)
    return {
      kind: 'claude',
      label: `Claude Code (${claude}, logged in: ${login})`,
      args: ['--provider', 'claude'],
    };
  if (env.ANTHROPIC_API_KEY)
    return {
      kind: 'anthropic',
      label: 'anthropic (ANTHROPIC_API_KEY)',
      args: ['--provider', 'anthropic'],
    };
  if (env.OPENAI_API_KEY)
    return {
      kind: 'openai',
      label: 'openai (OPENAI_API_KEY)',
      args: ['--provider', 'openai', '--model', 'gpt-5-mini'],
    };
  const local = await findLocal();
  if (local !== undefined)
    return {
      kind: 'openai-compatible',
      label: `openai-compatible at ${local.base} (${local.model})`,
      args: ['--provider', 'openai-compatible', '--base-url', local.base, '--model', local.model],
    };
  const why =
    claude === undefined
      ? 'no logged-in claude, API key or local server was found'
      : `claude is at ${claude} but not logged in, and no API key or local server was found`;
  return { kind: 'scripted', label: `a SCRIPTED LOCAL MODEL (no real model: ${why})`, args: [] };
}
