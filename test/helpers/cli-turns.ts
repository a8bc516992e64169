import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliAgentSession, type LoopEvent, runCliTurn } from '../../src/internal.js';
import { tempDir } from './temp.js';

/** One turn of a command-line agent session: sends `message`, collects the events to its end. */
export async function turn(
  session: CliAgentSession,
  message = 'Review src/',
): Promise<LoopEvent[]> {
  const events: LoopEvent[] = [];
  for await (const event of runCliTurn(session, message)) events.push(event);
  return events;
}

/** The events of one type. */
export function ofType<T extends LoopEvent['type']>(events: readonly LoopEvent[], type: T) {
  return events.filter((event): event is Extract<LoopEvent, { type: T }> => event.type === type);
}

/**
 * A fake agent written at test time: the script and its scenario in a fresh folder; answers how
 * to run it (node and the script), its environment (the scenario's and the record's paths) and a
 * reader of what it recorded.
 */
export function writeFakeAgent<Recorded>(
  name: string,
  script: string,
  scenario: unknown,
  env: Readonly<Record<string, string>> = {},
): {
  readonly command: string;
  readonly prefix: readonly string[];
  readonly env: Record<string, string>;
  readonly dir: string;
  record(): Recorded;
} {
  const dir = tempDir(`skillhost-fake-${name}-`);
  const file = join(dir, name);
  writeFileSync(file, script);
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(scenario));
  const recordFile = join(dir, 'record.json');
  return {
    command: process.execPath,
    prefix: [file],
    dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      FAKE_SCENARIO: join(dir, 'scenario.json'),
      FAKE_RECORD: recordFile,
      ...env,
    },
    record: () => JSON.parse(readFileSync(recordFile, 'utf8')) as Recorded,
  };
}
