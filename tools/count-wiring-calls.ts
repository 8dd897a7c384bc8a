/**
 * `pnpm wiring:count`: how many calls a host on PostgreSQL + S3 makes to wire the kit, counted in
 * the README's block marked `<!-- wiring: postgres + s3 … -->` (the one examples/demo's
 * readme-wiring test runs), not read off the prose. A kit call is a call (or `new`) of a name the
 * block imports from an `@onboarding-kit/*` package; the host's own calls (its pool, its S3
 * client, express) are printed beside them, not counted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The README's block; another file and marker: `pnpm wiring:count <file> '<marker>'`. */
const WIRING_MARKER = '<!-- wiring: postgres + s3 (';

export type WiringCalls = {
  /** The README line of the block's fence. */
  readonly line: number;
  /** The kit's calls, in order, with the package each name comes from. */
  readonly kitCalls: readonly { readonly name: string; readonly from: string }[];
  /** Every other call or `new` of the block, as written (callee text). */
  readonly hostCalls: readonly string[];
};

/** The code of the block right after the marker line, and its fence's line number. */
export const markedBlock = (markdown: string, marker = WIRING_MARKER): { code: string; line: number } => {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.startsWith(marker));
  if (at === -1) throw new Error(`no line starting with ${marker}`);
  if (!/^```(ts|typescript)\b/.test(lines[at + 1] ?? '')) {
    throw new Error(`the line after ${marker} (line ${at + 1}) does not open a ts block`);
  }
  const end = lines.findIndex((line, index) => index > at + 1 && line.startsWith('```'));
  return { code: lines.slice(at + 2, end).join('\n'), line: at + 2 };
};

export const countWiringCalls = (markdown: string, marker = WIRING_MARKER): WiringCalls => {
  const { code, line } = markedBlock(markdown, marker);
  const source = ts.createSourceFile('wiring.ts', code, ts.ScriptTarget.ES2022, true);
  const kitNames = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (!from.startsWith('@onboarding-kit/') || bindings === undefined || !ts.isNamedImports(bindings))
      continue;
    for (const element of bindings.elements) kitNames.set(element.name.text, from);
  }
  const kitCalls: { name: string; from: string }[] = [];
  const hostCalls: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression.getText(source);
      const from = kitNames.get(callee);
      if (from === undefined) hostCalls.push(ts.isNewExpression(node) ? `new ${callee}` : callee);
      else kitCalls.push({ name: callee, from });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { line, kitCalls, hostCalls };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file = 'README.md', marker = WIRING_MARKER] = process.argv.slice(2);
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  const { line, kitCalls, hostCalls } = countWiringCalls(readFileSync(path, 'utf8'), marker);
  console.log(`${file} line ${line}, the block after ${marker}…:`);
  for (const { name, from } of kitCalls) console.log(`  ${name} (${from})`);
  const packages = new Set(kitCalls.map(({ from }) => from));
  console.log(`${kitCalls.length} calls of the kit from ${packages.size} packages`);
  console.log(`the host's own calls beside them (not counted): ${hostCalls.join(', ')}`);
}
