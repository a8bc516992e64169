#!/usr/bin/env node
// Prints a short summary of a CSV file: rows, and per column the empty cells and numeric range.
import { readFileSync } from 'node:fs';

function splitLine(line) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  cells.push(cell);
  return cells;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: summarise.mjs FILE.csv');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8')
  .split(/\r?\n/)
  .filter((line) => line.trim() !== '');
const [header, ...rows] = lines.map(splitLine);
console.log(`${rows.length} rows, ${header.length} columns`);
header.forEach((name, column) => {
  const values = rows.map((row) => (row[column] ?? '').trim());
  const empty = values.filter((value) => value === '').length;
  const numbers = values
    .filter((value) => value !== '' && !Number.isNaN(Number(value)))
    .map(Number);
  const range =
    numbers.length === values.length - empty && numbers.length > 0
      ? `, range ${Math.min(...numbers)}..${Math.max(...numbers)}`
      : '';
  console.log(`${name}: ${empty} empty${range}`);
});
