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

const entryPath = (name: PublishedEntry): string =>
  resolve(repositoryRoot, 'packages', publishedEntries[name]);

/**
 * One program over every entry point, made on first use: the entries share most of their sources
 * (all of core), and a program per entry parsed them (and TypeScript's own libraries) seven times.
 */
let program: ts.Program | undefined;
const everyEntryProgram = (): ts.Program => {
  program ??= ts.createProgram(
    Object.keys(publishedEntries).map((name) => entryPath(name as PublishedEntry)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
    },
  );
  return program;
};

/**
 * Every name an entry point exports, one per line as `value <name>` or `type <name>`, sorted: the
 * report a reviewer reads to see the public surface change (a name added, removed or turned from a
 * type into a value).
 */
export const publicApiReport = (entryName: PublishedEntry): string => {
  const entry = entryPath(entryName);
  const checker = everyEntryProgram().getTypeChecker();
  const source = everyEntryProgram().getSourceFile(entry);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`cannot read the exports of ${entry}`);
  const entries = checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.getName(), kind: target.flags & ts.SymbolFlags.Value ? 'value' : 'type' };
  });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return `${entries.map(({ name, kind }) => `${kind} ${name}`).join('\n')}\n`;
};
