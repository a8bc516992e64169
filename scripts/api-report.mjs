// The API report: the sorted export names of every public entry of the package, each marked
// `value` (something a program can import and call) or `type`, read from the built declaration
// files. test/api-report.test.ts compares it with the files checked in under api/, so that a new
// export is a visible change in review. `npm run api:update` writes them anew.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `.` → `skillhost`, `./node` → `skillhost-node`: the report file's name for an entry. */
function reportName(entry) {
  return entry === '.' ? 'skillhost' : `skillhost-${entry.slice(2).replaceAll('/', '-')}`;
}

/** Every public entry (package.json `exports`, minus package.json) and its declaration file. */
export function publicEntries() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.entries(manifest.exports)
    .filter(([entry]) => entry !== './package.json')
    .map(([entry, target]) => ({
      entry,
      name: reportName(entry),
      types: join(root, target.types),
    }));
}

/**
 * Whether an export is a value at run time: it names a value, and no link of its chain of
 * re-exports is type-only (`export { type X }` of a class exports only its type).
 */
function isValue(checker, symbol) {
  let current = symbol;
  for (let depth = 0; depth < 32 && current.flags & ts.SymbolFlags.Alias; depth += 1) {
    if ((current.declarations ?? []).some((node) => ts.isTypeOnlyImportOrExportDeclaration(node)))
      return false;
    current = checker.getImmediateAliasedSymbol(current) ?? checker.getAliasedSymbol(current);
  }
  return (current.flags & ts.SymbolFlags.Value) !== 0;
}

/** The report of each entry: `value NAME` or `type NAME` lines, sorted by name. */
export function renderApiReports() {
  const entries = publicEntries();
  const program = ts.createProgram(
    entries.map((entry) => entry.types),
    {
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const reports = {};
  for (const entry of entries) {
    const source = program.getSourceFile(entry.types);
    if (source === undefined) throw new Error(`${entry.types} is missing: run npm run build`);
    const module = checker.getSymbolAtLocation(source);
    const lines = (module === undefined ? [] : checker.getExportsOfModule(module)).map(
      (symbol) => `${isValue(checker, symbol) ? 'value' : 'type'} ${symbol.getName()}`,
    );
    lines.sort((a, b) => {
      const [x, y] = [a.slice(a.indexOf(' ') + 1), b.slice(b.indexOf(' ') + 1)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    reports[entry.name] = `${lines.join('\n')}\n`;
  }
  return reports;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, text] of Object.entries(renderApiReports())) {
    writeFileSync(join(root, 'api', `${name}.api.txt`), text);
    const values = text.split('\n').filter((line) => line.startsWith('value ')).length;
    const types = text.split('\n').filter((line) => line.startsWith('type ')).length;
    console.log(`api/${name}.api.txt: ${values} values, ${types} types`);
  }
}
