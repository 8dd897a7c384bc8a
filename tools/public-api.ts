import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The published packages whose public API is pinned in `docs/api/<name>.exports.txt`. */
export const publishedPackages = ['core', 'express', 'memory', 'postgres', 's3'] as const;

/**
 * Every name a package's index exports, one per line as `value <name>` or `type <name>`, sorted: the
 * report a reviewer reads to see the public surface change (a name added, removed or turned from a
 * type into a value).
 */
export const publicApiReport = (packageName: (typeof publishedPackages)[number]): string => {
  const entry = resolve(repositoryRoot, 'packages', packageName, 'src/index.ts');
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`cannot read the exports of ${entry}`);
  const entries = checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.getName(), kind: target.flags & ts.SymbolFlags.Value ? 'value' : 'type' };
  });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return `${entries.map(({ name, kind }) => `${kind} ${name}`).join('\n')}\n`;
};
