import { describe, expect, it } from 'vitest';
import { SkillRouter, tokenize } from '../../src/disclosure/router.js';

const skills = [
  {
    name: 'pdf-processing',
    description: 'Extract text and tables from PDF files, fill PDF forms, merge documents.',
  },
  {
    name: 'csv-summary',
    description: 'Summarise a CSV file: rows, columns, empty cells and numeric ranges.',
  },
  { name: 'release-notes', description: 'Write release notes from a list of changes.' },
  {
    name: 'stuffed',
    description: 'pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf pdf',
  },
];

describe('SkillRouter', () => {
  const router = new SkillRouter(skills);

  it('ranks skills by relevance and explains each score', () => {
    const result = router.route('Please extract the tables from this PDF report');
    expect(result.ranked[0]?.name).toBe('pdf-processing');
    expect(result.ranked[0]?.terms).toHaveProperty('tables');
    expect(result.selected).toEqual(['pdf-processing']);
  });

  it('gives keyword stuffing no advantage over a real description', () => {
    const result = router.route('merge two pdf documents');
    expect(result.ranked[0]?.name).toBe('pdf-processing');
  });

  it('selects nothing when nothing is relevant', () => {
    expect(router.route('what is the weather in Lisbon?').selected).toEqual([]);
  });

  it('honours explicit /name and $name mentions, and reports unknown ones', () => {
    const result = router.route(
      'Use /csv-summary on data.csv, then $release-notes; not /usr/bin or /nope-skill',
    );
    expect(result.mentioned).toEqual(['csv-summary', 'release-notes']);
    expect(result.selected).toEqual(['csv-summary', 'release-notes']);
    expect(result.unknownMentions).toEqual(['nope-skill']);
  });

  it('tokenizes Unicode words without stop words', () => {
    expect(tokenize('The PDF-файл and 技能 of it')).toEqual(['pdf', 'файл', '技能']);
  });
});
