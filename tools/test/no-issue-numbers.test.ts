import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * Source says why in its own words: a tracker number means nothing to a reader without the tracker (the
 * git history keeps which change came from which issue). Checked in code and SQL, not in docs.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', '.tmp'].includes(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|sql)$/.test(entry.name) ? [path] : [];
  });

it('no source file names a tracker issue by number', () => {
  const named = ['packages', 'examples', 'bench', 'tools', 'test-support']
    .flatMap((folder) => sourceFiles(join(root, folder)))
    .flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b[Ii]ssues? \d+/.test(line) ? [`${relative(root, path)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
  expect(named).toEqual([]);
});
