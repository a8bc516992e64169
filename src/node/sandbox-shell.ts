import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandRunRequest, ScriptRunRequest, ScriptRunResult } from '../deps.js';

/** The name the command's text is staged under (what bash reads). */
const COMMAND_FILE = 'command.sh';

/**
 * Runs a shell command the way a skill's script runs (`bash` reading the command as a script, in
 * the same sandbox: no network, the workspace as granted and its secret files hidden, the limits,
 * the process group killed at the end), from a folder holding only the command, standing for the
 * skill: the command belongs to no skill, so no skill's files are staged.
 */
export async function runShellCommand(
  request: CommandRunRequest,
  runScript: (request: ScriptRunRequest) => Promise<ScriptRunResult>,
  tempDir: string = tmpdir(),
): Promise<ScriptRunResult> {
  const empty = mkdtempSync(join(tempDir, 'skillhost-command-'));
  const bytes = new TextEncoder().encode(request.command);
  try {
    // Readable by whoever the command runs as (an unprivileged user when skillhost is root).
    chmodSync(empty, 0o755);
    writeFileSync(join(empty, COMMAND_FILE), bytes, { mode: 0o644 });
    return await runScript({
      skillDirectory: empty,
      scriptPath: COMMAND_FILE,
      scriptBytes: bytes,
      interpreter: 'bash',
      args: [],
      limits: request.limits,
      trusted: true,
      ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
      ...(request.env === undefined ? {} : { env: request.env }),
      ...(request.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
    });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}
