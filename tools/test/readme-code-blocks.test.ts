import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { markdownFiles, root } from './markdown-files.js';

/**
 * Every TypeScript block a host may copy from the READMEs and docs compiles, strictly, against the
 * packages' sources: the blocks cannot drift from the API again. Each block is written to a file of
 * its own inside the example host app, whose node_modules hold what a host installs next to the kit
 * (express, pg and @types/pg, the AWS SDK, pino-http, winston), and compiled as a module with the
 * repository's tsconfig.
 * A block that goes on from the one before it says so in the line before it (`<!-- continues the
 * block above -->`): it is compiled after that block's code. A block that is deliberately a
 * fragment says so in its fence (```ts fragment) or in the line before it (`<!-- not compiled: why
 * -->`); the test counts and names them.
 */
const blocksDirectory = join(root, 'examples/host-app/.tmp/readme-blocks');

/** `prefix`: the code of the blocks it continues, compiled before its own. */
type Block = {
  readonly source: string;
  readonly line: number;
  readonly prefix: string;
  readonly code: string;
};
type Skipped = { readonly source: string; readonly line: number; readonly reason: string };

const NOT_COMPILED = /<!--\s*not compiled:\s*(.+?)\s*-->\s*$/;
const CONTINUES = /<!--\s*continues the block above\s*-->\s*$/;

const blocksOf = (source: string): { compiled: Block[]; skipped: Skipped[] } => {
  const lines = readFileSync(join(root, source), 'utf8').split('\n');
  const compiled: Block[] = [];
  const skipped: Skipped[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^```(ts|typescript)\b(.*)$/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    const code = lines.slice(index + 1, end).join('\n');
    const before = lines
      .slice(0, index)
      .reverse()
      .find((line) => line.trim() !== '');
    const marked = NOT_COMPILED.exec(before ?? '')?.[1];
    if (marked !== undefined) skipped.push({ source, line: index + 1, reason: marked });
    else if (/\bfragment\b/.test(fence[2] ?? ''))
      skipped.push({ source, line: index + 1, reason: 'fenced as a fragment' });
    else {
      const previous = compiled.at(-1);
      const prefix =
        CONTINUES.test(before ?? '') && previous !== undefined && previous.source === source
          ? `${previous.prefix}${previous.code}\n`
          : '';
      compiled.push({ source, line: index + 1, prefix, code });
    }
    index = end;
  }
  return { compiled, skipped };
};

const compilerOptions = (): ts.CompilerOptions => {
  const configPath = join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, root).options, noEmit: true };
};

test('every TypeScript block of the READMEs and docs compiles against the packages (strict)', () => {
  const found = markdownFiles().map(blocksOf);
  const compiled = found.flatMap((one) => one.compiled);
  const skipped = found.flatMap((one) => one.skipped);
  rmSync(blocksDirectory, { recursive: true, force: true });
  mkdirSync(blocksDirectory, { recursive: true });
  const files = new Map<string, Block>();
  compiled.forEach((block, index) => {
    const file = join(blocksDirectory, `block-${index}.ts`);
    // `export {}`: each block is a module of its own, so names never clash between blocks.
    writeFileSync(file, `${block.prefix}${block.code}\nexport {};\n`);
    files.set(file, block);
  });

  // Only the blocks are checked (the packages are by lint): the whole program's diagnostics, filtered
  // to the blocks afterwards, type-checked every source of the packages too.
  const program = ts.createProgram([...files.keys()], compilerOptions());
  const problems = [...files.keys()]
    .map((file) => program.getSourceFile(file))
    .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])
    .map((diagnostic) => {
      const file = diagnostic.file as ts.SourceFile;
      const block = files.get(file.fileName) as Block;
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const ownLine = line - (block.prefix.split('\n').length - 1);
      const where = ownLine < 0 ? `${block.line} (in the block it continues)` : `${block.line + 1 + ownLine}`;
      return `${block.source}:${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  rmSync(blocksDirectory, { recursive: true, force: true });

  console.info(
    `${compiled.length} TypeScript blocks compiled; ${skipped.length} skipped as fragments:\n` +
      skipped.map((one) => `  ${one.source}:${one.line} (${one.reason})`).join('\n'),
  );
  expect(compiled.length).toBeGreaterThan(10);
  expect(relative(root, blocksDirectory)).toMatch(/^examples\/host-app\//);
  expect(problems).toEqual([]);
}, 240_000);
