// A separate process writing one audit session to a shared log, for the concurrent-writer test.
// Usage: node audit-writer.mjs LOG SESSION_ID RECORDS (uses the built package in dist/).
import { AuditTrail } from '../../dist/internal.js';
import { createJsonlAuditSink, sha256 } from '../../dist/node/index.js';

const [path, sessionId, count] = process.argv.slice(2);
const sink = createJsonlAuditSink(path, { fsync: 'never' });
const trail = new AuditTrail({ sink, hash: sha256, now: () => new Date(), sessionId });
trail.record({ event: 'session-start' });
for (let index = 0; index < Number(count); index += 1) {
  trail.record({
    event: 'resource-read',
    skill_name: 'demo',
    loaded_files: [`references/${'x'.repeat(index * 37)}.md`],
  });
}
trail.close();
sink.close();
