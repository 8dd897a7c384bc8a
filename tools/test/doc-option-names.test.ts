import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { markdownFiles, root } from './markdown-files.js';

/**
 * Every option a README or doc names is an option of the code it names: a renamed or removed
 * option cannot stay in the prose (the ```ts blocks are compiled by readme-code-blocks; files and
 * migrations are checked by doc-names-exist). Two shapes are read:
 *
 * - a call in inline code, `createPostgresAdapters({ pool })` or `kit.screening.listChanged({
 *   version, changedTargets })`: each top-level property must be a property of one of the
 *   function's parameters;
 * - an options table (its first header cell is `option`) under a heading naming a call,
 *   `## Options of \`createMemoryAdapters(options?)\``: each row's backticked first cell.
 *
 * The function is looked up among the packages' public entries (the tsconfig paths), `kit.…` on
 * `OnboardingKit`; a call of another library's function (`pinoHttp({ redact })`) is left to it.
 * The names are checked by the compiler: one generated module assigns each to the union of its
 * function's parameters' keys. A parameter typed `unknown` (a body its zod schema checks at run
 * time, as `kit.screening.listChanged`'s) is not checked here.
 */
const checkDirectory = join(root, 'examples/host-app/.tmp/doc-option-names');

/** One option a doc names: the function (`createX`, `kit.a.b`), the option, where. */
type NamedOption = { readonly callee: string; readonly option: string; readonly at: string };

const CALL = /([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\{/g;
const IDENTIFIER = /^\.{0,3}\s*([A-Za-z_$][\w$]*)/;

/** The top-level property names of the object literal starting after `({` at `from`. */
const propertiesAt = (code: string, from: number): string[] => {
  const names: string[] = [];
  let depth = 0;
  let segment = '';
  for (let index = from; index < code.length; index += 1) {
    const char = code[index] ?? '';
    if ('([{'.includes(char)) depth += 1;
    if (')]}'.includes(char)) {
      if (depth === 0) {
        names.push(segment);
        break;
      }
      depth -= 1;
    }
    if (char === ',' && depth === 0) {
      names.push(segment);
      segment = '';
    } else segment += char;
  }
  return names
    .filter((one) => !one.trim().startsWith('...'))
    .map((one) => IDENTIFIER.exec(one.trim())?.[1])
    .filter((name): name is string => name !== undefined);
};

/** The lines of a doc outside its fenced code blocks, with their numbers. */
const proseLines = (text: string): { line: string; number: number }[] => {
  const lines: { line: string; number: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push({ line, number: index + 1 });
  });
  return lines;
};

const optionsNamedIn = (source: string): NamedOption[] => {
  const found: NamedOption[] = [];
  const lines = proseLines(readFileSync(join(root, source), 'utf8'));
  let heading: string | null = null;
  let table: string | null = null;
  for (const { line, number } of lines) {
    const at = `${source}:${number}`;
    if (line.startsWith('#')) heading = /`([A-Za-z_$][\w$.]*)\(/.exec(line)?.[1] ?? null;
    // Inline code spans holding a call with an object literal.
    for (const [, span = ''] of line.matchAll(/`([^`]+)`/g)) {
      for (const call of span.matchAll(CALL)) {
        const callee = call[1] ?? '';
        for (const option of propertiesAt(span, (call.index ?? 0) + call[0].length)) {
          found.push({ callee, option, at });
        }
      }
    }
    // An options table under a heading naming its function.
    if (!line.startsWith('|')) {
      table = null;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (table === null && cells[0]?.toLowerCase() === 'option') table = heading;
    else if (table !== null && !/^-+$/.test(cells[0] ?? '')) {
      const option = /^`([A-Za-z_$][\w$]*)`/.exec(cells[0] ?? '')?.[1];
      if (option !== undefined) found.push({ callee: table, option, at });
    }
  }
  return found;
};

const compilerOptions = (): ts.CompilerOptions => {
  const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, root).options, noEmit: true };
};

/** Each value the packages' public entries export, with the entry that exports it first. */
const publicExports = (
  options: ts.CompilerOptions,
): { exported: Map<string, string>; program: ts.Program } => {
  const entries = Object.entries(options.paths ?? {}).map(
    ([specifier, [file = '']]) => [specifier, join(root, file)] as const,
  );
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    options,
  );
  const checker = program.getTypeChecker();
  const exported = new Map<string, string>();
  for (const [specifier, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    for (const symbol of module === undefined ? [] : checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (target.flags & ts.SymbolFlags.Value && !exported.has(symbol.name))
        exported.set(symbol.name, specifier);
    }
  }
  return { exported, program };
};

test('every option a doc names is an option of the function it names', () => {
  const named = markdownFiles().flatMap(optionsNamedIn);
  const options = compilerOptions();
  const { exported, program: exportsProgram } = publicExports(options);

  const imports = new Map<string, string>();
  const checks: { line: string; named: NamedOption }[] = [];
  const unresolved = new Set<string>();
  for (const one of named) {
    let type: string;
    if (one.callee.startsWith('kit.')) {
      imports.set('OnboardingKit', '@onboarding-kit/core');
      type = `OnboardingKit${one.callee
        .split('.')
        .slice(1)
        .map((member) => `['${member}']`)
        .join('')}`;
    } else if (!one.callee.includes('.') && exported.has(one.callee)) {
      imports.set(one.callee, exported.get(one.callee) ?? '');
      type = `typeof ${one.callee}`;
    } else {
      unresolved.add(one.callee);
      continue;
    }
    checks.push({
      line: `export const check${checks.length}: OptionNames<${type}> = '${one.option}';`,
      named: one,
    });
  }

  const byModule = new Map<string, string[]>();
  for (const [name, specifier] of imports)
    byModule.set(specifier, [...(byModule.get(specifier) ?? []), name]);
  const header = [
    ...[...byModule].map(
      ([specifier, names]) =>
        `import ${names.includes('OnboardingKit') ? 'type ' : ''}{ ${names.join(', ')} } from '${specifier}';`,
    ),
    '/** The keys of any of a function’s parameters; a body typed `unknown` (its schema checks it at run time) takes any; a `never` (a rest parameter that refuses more arguments) none. */',
    'type KeysOf<T> = [T] extends [never] ? never : unknown extends T ? string : keyof NonNullable<T>;',
    'type OptionNames<F> = F extends (...args: infer A) => unknown ? { [I in keyof A]: KeysOf<A[I]> }[number] : never;',
  ];
  rmSync(checkDirectory, { recursive: true, force: true });
  mkdirSync(checkDirectory, { recursive: true });
  const file = join(checkDirectory, 'named-options.ts');
  writeFileSync(file, `${[...header, ...checks.map((check) => check.line)].join('\n')}\n`);

  // Only the generated module is checked (the packages are by lint); the first program's files are reused.
  const program = ts.createProgram([file], options, undefined, exportsProgram);
  const checked = program.getSourceFile(file);
  const problems = [
    ...program.getSyntacticDiagnostics(checked),
    ...program.getSemanticDiagnostics(checked),
  ].map((diagnostic) => {
    const { line } = (diagnostic.file as ts.SourceFile).getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const check = checks[line - header.length];
    return check === undefined
      ? ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
      : `${check.named.at}: \`${check.named.callee}\` has no option \`${check.named.option}\``;
  });
  rmSync(checkDirectory, { recursive: true, force: true });

  console.info(
    `${checks.length} options named by the docs checked; calls of other libraries left to them: ${[...unresolved].sort().join(', ')}`,
  );
  expect(checks.length).toBeGreaterThan(20);
  expect(problems).toEqual([]);
}, 240_000);
