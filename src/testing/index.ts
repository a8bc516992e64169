/**
 * skillhost/testing — test doubles for programs built on skillhost, used by skillhost's own
 * tests too. Every export is public API. Runtime-neutral: nothing here imports `node:*`, so the
 * doubles run wherever the core runs.
 */
export {
  createRecordingAuditSink,
  type RecordingAuditSink,
} from './audit.js';
export { createFakeClock, type FakeClock } from './clock.js';
export { type SkillFixtureOptions, skillFixture } from './fixture.js';
export {
  createMemoryFileSystem,
  type MemoryEntry,
  type MemoryFileSystem,
  type MemoryFileSystemOptions,
  type MemoryFileSystemStats,
} from './memory-fs.js';
export {
  captureOutput,
  createScriptedRunner,
  type ScriptedHandler,
  type ScriptedOutcome,
  type ScriptedRunner,
  type ScriptedRunnerOptions,
} from './runner.js';
