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
    expect(result.ranked[0]?.terms).toHaveProperty('tabl');
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

describe('a router that understands tasks', () => {
  const collection = [
    {
      name: 'pptx',
      description:
        'Use this skill any time a .pptx file is involved: creating slide decks, pitch decks or presentations, reading or editing them.',
    },
    {
      name: 'code-review',
      description:
        'Review code changes for bugs and style. Use when the user asks for a review of a pull request.',
    },
    {
      name: 'design-review',
      description:
        'Review UI designs for consistency. Use when asked to review a design or mockup.',
    },
    {
      name: 'needs-analysis',
      description: 'Gather what the stakeholders need and want from a product.',
    },
    {
      name: 'crash-debugging',
      description: 'Debug crashes and segfaults from stack traces. Use when a program crashes.',
    },
    {
      name: 'spreadsheet-tools',
      description: 'Clean, chart and summarise tables of numbers.',
    },
  ];
  const router = new SkillRouter(collection);

  it('matches word stems: plurals and verb forms meet', () => {
    expect(router.route('create slides for my talk').selected).toEqual(['pptx']);
    expect(router.route('debugging a crashed program').ranked[0]?.name).toBe('crash-debugging');
    expect(router.route('create slides for my talk').ranked[0]?.terms).toHaveProperty('slide');
  });

  it('selects nothing on stop words or the words of asking', () => {
    const result = router.route('I need to debug a crash');
    expect(result.selected).toEqual(['crash-debugging']);
    expect(result.query.dropped).toEqual(expect.arrayContaining(['need', 'to']));
    expect(result.ranked.map((candidate) => candidate.name)).not.toContain('needs-analysis');
    expect(router.route('please help me, I need it').selected).toEqual([]);
  });

  it('does not take a quarterly review for a code review', () => {
    // Each review skill matches "review" alike, and none "quarterly": no match stands out.
    const result = router.route('quarterly review');
    expect(result.selected).toEqual([]);
    const candidate = result.ranked.find((item) => item.name === 'code-review');
    expect(candidate?.coverage).toBeLessThan(0.4);
    expect(result.ranked[0]?.verdict).toBe('low-coverage');
    expect(candidate?.verdict).not.toBe('selected');
    // Named with its own words, it is found.
    expect(router.route('review my pull request').selected).toEqual(['code-review']);
  });

  it('weighs the name most, then the "use when" part, then the rest', () => {
    const weighed = new SkillRouter([
      { name: 'invoices', description: 'Reads documents.' },
      { name: 'reader', description: 'Reads documents. Use when invoices arrive.' },
      { name: 'archive', description: 'Keeps invoices and other documents.' },
    ]).route('invoices');
    expect(weighed.ranked.map((candidate) => candidate.name)).toEqual([
      'invoices',
      'reader',
      'archive',
    ]);
    expect(weighed.ranked[1]?.matches.invoic?.fields).toEqual({ trigger: 1.5 });
    expect(weighed.ranked[0]?.matches.invoic?.fields).toEqual({ name: 3 });
  });

  it('finds a file format by the words people use for it, and says so', () => {
    const result = router.route('build a powerpoint');
    expect(result.ranked[0]?.name).toBe('pptx');
    expect(result.ranked[0]?.matches.pptx?.aliasOf).toBe('powerpoint');
    expect(router.route('summarise this excel workbook').ranked[0]?.name).toBe('spreadsheet-tools');
  });

  it('counts a phrase of two adjacent terms as a term of its own', () => {
    const result = new SkillRouter([
      { name: 'code-review', description: 'Code review of pull requests.' },
      { name: 'reviews', description: 'Review notes and code of conduct.' },
    ]).route('code review');
    expect(result.ranked[0]?.name).toBe('code-review');
    expect(result.ranked[0]?.terms).toHaveProperty(['code review']);
    expect(result.ranked[1]?.terms).not.toHaveProperty(['code review']);
  });
});

describe('a task with two parts', () => {
  it('selects a second skill under the best score when its own name covers another part of the task', () => {
    const router = new SkillRouter([
      {
        name: 'csv-summary',
        description:
          'Summarise a CSV file: row count, columns and ranges. Use when the user shares a CSV or asks what a data file contains.',
      },
      {
        name: 'code-analysis',
        description:
          'Find bugs and risky patterns. Use when asked to review code or analyse a codebase.',
      },
      { name: 'release-notes', description: 'Prepare release notes and numbers for a release.' },
    ]);
    expect(
      router.route('summarise the sample CSV data file, then review the code for bugs').selected,
    ).toEqual(['csv-summary', 'code-analysis']);
    // Words in passing are no second part: only a skill named for it is added.
    expect(
      router.route('summarise the sample CSV data file and prepare the numbers').selected,
    ).toEqual(['csv-summary']);
  });
});
