import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { markdownFiles, root } from './markdown-files.js';

/**
 * Every migration file and every repository path a README or doc names exists in the tree: a
 * renamed or squashed file cannot leave a doc pointing at nothing. Paths are the backticked or
 * linked ones starting at a top-level folder (`packages/…`, `examples/…`, `docs/…`, `tools/…`,
 * `bench/…`, `test-support/…`, `.ci/…`), from the root or the doc's folder; migrations are any
 * `NNNN_name.sql`.
 */
const migrations = new Set(readdirSync(join(root, 'packages/postgres/migrations')));
const PATH =
  /(?:`|\]\()((?:\.\.\/)*(?:packages|examples|docs|tools|bench|test-support|\.ci)\/[\w./*-]*[\w*-])/g;
const MIGRATION = /\b\d{4}_[a-z0-9_]+\.sql\b/g;

test('every migration and repository path a doc names exists', () => {
  const missing: string[] = [];
  for (const source of markdownFiles()) {
    const text = readFileSync(join(root, source), 'utf8');
    for (const [name] of text.matchAll(MIGRATION))
      if (!migrations.has(name)) missing.push(`${source}: migration ${name}`);
    for (const [, path = ''] of text.matchAll(PATH)) {
      const relative = path.replace(/^(\.\.\/)+/, '').replace(/#.*$/, '');
      // A glob or a placeholder names no one file.
      if (/[*<>…]/.test(relative)) continue;
      // From the repository's root, or from the doc's own folder (a package README names its files).
      const folder = join(root, source, '..');
      if (!existsSync(join(root, relative)) && !existsSync(join(folder, path)))
        missing.push(`${source}: ${path}`);
    }
  }
  expect(missing).toEqual([]);
});
