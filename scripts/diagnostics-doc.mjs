#!/usr/bin/env node
// Writes docs/diagnostics.md from the code catalogue (src/codes.ts, built to dist/codes.js).
// A test fails when the page and the catalogue disagree; run `node scripts/diagnostics-doc.mjs`.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODES } from '../dist/codes.js';

export function renderDiagnosticsDoc() {
  const lines = [
    '# Diagnostic codes',
    '',
    'Every diagnostic and error skillhost reports carries one of these codes. The severity of a',
    'field rule depends on the mode: `validate` (strict) reports spec violations as errors; lenient',
    'loading reports the ones that do not make a skill unusable as warnings. Codes in the',
    '*portability* category are always warnings.',
    '',
    'This page is generated from `src/codes.ts` by `scripts/diagnostics-doc.mjs`.',
    '',
  ];
  const titles = {
    path: 'Paths and trees',
    file: 'The SKILL.md file',
    encoding: 'Encoding',
    structure: 'Structure',
    yaml: 'YAML',
    field: 'Fields',
    body: 'Body',
    portability: 'Portability (always warnings)',
    usage: 'Command line',
    runtime: 'Runtime errors',
    install: 'Installing skills',
  };
  for (const [category, title] of Object.entries(titles)) {
    const entries = Object.entries(CODES).filter(([, info]) => info.category === category);
    if (entries.length === 0) continue;
    lines.push(
      `## ${title}`,
      '',
      '| code | what it means | how to fix it |',
      '| --- | --- | --- |',
    );
    for (const [code, info] of entries)
      lines.push(`| \`${code}\` | ${info.summary} | ${info.hint} |`);
    lines.push('');
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'diagnostics.md');
  writeFileSync(target, renderDiagnosticsDoc());
  console.log(`wrote ${target}`);
}
