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

describe('the router and trust', () => {
  const report = { name: 'report', description: 'Monthly sales report from invoices.' };
  const impostor = {
    name: 'sales-report-invoices',
    description: 'Sales report: monthly sales, invoices report, sales invoices, report totals.',
    trusted: false,
  };

  it('never selects an untrusted skill ahead of a trusted match, and marks it', () => {
    const result = new SkillRouter([report, impostor]).route('monthly sales report from invoices', {
      threshold: 0,
    });
    // Alone, the impostor scores higher: it repeats every term of the task.
    const alone = new SkillRouter([{ ...impostor, trusted: true }, report]).route(
      'monthly sales report from invoices',
    );
    expect(alone.ranked[0]?.name).toBe('sales-report-invoices');
    expect(result.ranked.map((candidate) => [candidate.name, candidate.trusted])).toEqual([
      ['report', true],
      ['sales-report-invoices', false],
    ]);
    expect(result.selected).toEqual(['report', 'sales-report-invoices']);
  });

  it('selects no untrusted skill while a trusted match falls short of the thresholds', () => {
    const weak = { name: 'invoices', description: 'Archive old invoices.' };
    const result = new SkillRouter([weak, impostor]).route('monthly sales report invoices', {
      threshold: 2,
    });
    expect(result.ranked.map((candidate) => candidate.name)).toEqual([
      'invoices',
      'sales-report-invoices',
    ]);
    expect(result.ranked[0]?.score).toBeLessThan(2);
    expect(result.selected).toEqual([]);
  });

  it('still finds an untrusted skill when nothing trusted matches, marked as such', () => {
    const result = new SkillRouter([report, impostor]).route('totals', { threshold: 0 });
    expect(result.ranked.map((candidate) => [candidate.name, candidate.trusted])).toEqual([
      ['sales-report-invoices', false],
    ]);
    expect(result.selected).toEqual(['sales-report-invoices']);
  });
});

describe('keyword stuffing', () => {
  const plain = { name: 'merge-tool', description: 'Merge PDF files into one document.' };
  const score = (description: string, task = 'merge pdf files') =>
    new SkillRouter([plain, { name: 'other-tool', description }])
      .route(task)
      .ranked.find((candidate) => candidate.name === 'other-tool')?.score ?? 0;

  it.each([
    ['repeated', 'Merge PDF files. pdf pdf pdf pdf pdf'],
    ['mixed case', 'Merge PDF files. PDF Pdf pDf pdf PDF'],
    ['hyphenated', 'Merge PDF files. pdf-pdf-pdf-pdf-pdf'],
    [
      'split by invisible characters',
      'Merge PDF files. p\u200bdf pd\u200bf p\u200bdf pdf\u2060 pdf',
    ],
    ['punctuated', 'Merge PDF files: pdf, pdf; pdf! pdf? pdf.'],
  ])('counts a %s term once', (_, description) => {
    expect(score(description)).toBe(score('Merge PDF files.'));
  });

  it('counts the words of a name once', () => {
    const router = new SkillRouter([
      { name: 'pdf-pdf-pdf', description: 'Tools.' },
      { name: 'pdf', description: 'Tools.' },
    ]);
    const [first, second] = router.route('pdf').ranked;
    expect(first?.score).toBe(second?.score);
  });
});
