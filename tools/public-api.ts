import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The entry points whose public API is pinned in `docs/api/<name>.exports.txt`: each published
 * package's root, and core's two subpaths (`@onboarding-kit/core/adapter`, `/schemas`).
 */
export const publishedEntries = {
  core: 'core/src/index.ts',
  'core-adapter': 'core/src/adapter.ts',
  'core-schemas': 'core/src/schemas/index.ts',
  express: 'express/src/index.ts',
  memory: 'memory/src/index.ts',
  postgres: 'postgres/src/index.ts',
  s3: 's3/src/index.ts',
} as const;
export type PublishedEntry = keyof typeof publishedEntries;

/**
 * Every name an entry point exports, one per line as `value <name>` or `type <name>`, sorted: the
 * report a reviewer reads to see the public surface change (a name added, removed or turned from a
 * type into a value).
 */
export const publicApiReport = (entryName: PublishedEntry): string => {
  const entry = resolve(repositoryRoot, 'packages', publishedEntries[entryName]);
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
