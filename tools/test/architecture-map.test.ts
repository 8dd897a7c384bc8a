import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * docs/architecture.md is a map: every file or folder it names in backticks must exist, or the map
 * sends a newcomer to nothing. A name with a folder (`packages/core/src/errors.ts`) is read from the
 * repository root, or else as the end of a path under packages/ (`schemas/onboarding-payloads.ts`);
 * a bare file name (`errors.ts`) must be some file's name under packages/; `*` matches within a name.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const map = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? [path, ...filesUnder(path)] : [path];
  });
const packageFiles = filesUnder(join(root, 'packages')).map((path) => relative(root, path));
const topFolders = ['packages', 'examples', 'docs', 'bench', 'tools', 'test-support'];
const allFiles = new Set([
  ...topFolders,
  ...packageFiles,
  ...['examples', 'docs', 'bench', 'tools', 'test-support'].flatMap((folder) =>
    filesUnder(join(root, folder)).map((path) => relative(root, path)),
  ),
]);

const pattern = (name: string, anyFolder = false) =>
  new RegExp(
    `${anyFolder ? '(^|/)' : '^'}${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`,
  );

const exists = (named: string): boolean => {
  const name = named.replace(/\/$/, '');
  const matches = pattern(name);
  if (named.includes('/')) {
    if ([...allFiles].some((path) => matches.test(path))) return true;
    const tail = pattern(name, true);
    return packageFiles.some((path) => tail.test(path));
  }
  return packageFiles.some((path) => matches.test(path.split('/').at(-1) ?? ''));
};

const named = [...map.matchAll(/`([^`\s]+)`/g)]
  .map((match) => match[1] ?? '')
  .filter((token) => /^[\w.*/-]+(\.(ts|sql|md|json)|\/)$/.test(token) && !token.startsWith('.'));

it('docs/architecture.md names files at all (the check below has something to check)', () => {
  expect(named.length).toBeGreaterThan(10);
});

it('every file and folder docs/architecture.md names exists', () => {
  expect(named.filter((token) => !exists(token))).toEqual([]);
  expect(statSync(join(root, 'docs/architecture.md')).isFile()).toBe(true);
});
