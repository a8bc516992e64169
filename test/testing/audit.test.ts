import { describe, expect, it } from 'vitest';
import { verifyAuditLog } from '../../src/audit/reader.js';
import { AuditTrail } from '../../src/audit/trail.js';
import { sha256 } from '../../src/node/hash.js';
import { createFakeClock, createRecordingAuditSink } from '../../src/testing/index.js';

function trail() {
  const sink = createRecordingAuditSink();
  const clock = createFakeClock();
  const audit = new AuditTrail({ sink, hash: sha256, now: clock.now, sessionId: 'session-1' });
  return { sink, clock, audit };
}

describe('createRecordingAuditSink', () => {
  it('keeps each line and reads the records back', () => {
    const { sink, audit } = trail();
    expect(sink.records()).toEqual([]);
    audit.record({ event: 'session-start' });
    audit.record({ event: 'skill-activate', skill_name: 'pdf', triggered_by: 'user' });
    audit.close();
    expect(sink.lines).toHaveLength(3);
    expect(sink.lines.every((line) => line.endsWith('}\n'))).toBe(true);
    expect(sink.text).toBe(sink.lines.join(''));
    expect(sink.events()).toEqual(['session-start', 'skill-activate', 'session-end']);
    expect(sink.records()[1]).toMatchObject({
      seq: 2,
      session_id: 'session-1',
      skill_name: 'pdf',
      timestamp: '2025-01-01T00:00:00.000Z',
    });
    expect(sink.parsed().problems).toEqual([]);
    expect(verifyAuditLog(sink.parsed(), sha256)[0]).toMatchObject({ intact: true, records: 3 });
  });

  it('fails every write after fail(), so that the trail fails closed, until repair()', () => {
    const { sink, audit } = trail();
    audit.record({ event: 'session-start' });
    sink.fail('disk full');
    expect(() => audit.record({ event: 'skill-activate' })).toThrow(
      expect.objectContaining({
        code: 'AUDIT_UNAVAILABLE',
        message: expect.stringContaining('disk full'),
      }),
    );
    expect(() => sink.write('{}\n')).toThrow('disk full');
    expect(sink.lines).toHaveLength(1);
    sink.repair();
    audit.record({ event: 'skill-activate' });
    expect(sink.events()).toEqual(['session-start', 'skill-activate']);
  });

  it('reports what the reader reports about a damaged log', () => {
    const sink = createRecordingAuditSink();
    sink.write('not json\n');
    expect(sink.records()).toEqual([]);
    expect(sink.parsed().problems).toEqual([
      expect.objectContaining({ line: 1, kind: 'malformed' }),
    ]);
  });
});
