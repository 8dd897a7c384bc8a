/**
 * `pnpm pack:tarballs [directory]`: the way a host outside this repository gets the packages until
 * the first release. Builds every package, packs each published one (`pnpm pack`, which writes the
 * sibling packages' versions in place of `workspace:`) into `directory` (default `.tmp/tarballs`),
 * and prints the `npm install` line a host runs with them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The package directories a release publishes: every packages/* not marked private. */
export const publishedPackageDirectories = (): string[] =>
  readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter((directory) => {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
        private?: boolean;
      };
      return manifest.private !== true;
    });

/**
 * Builds (unless `built`: CI packs right after check:packages built them) and packs every published
 * package into `directory` (emptied first); the tarballs' paths.
 */
export const packTarballs = (directory: string, pnpm: readonly string[], built = false): string[] => {
  const [command = 'pnpm', ...prefix] = pnpm;
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  if (!built) execFileSync(command, [...prefix, 'build'], { cwd: root, stdio: 'inherit' });
  for (const packageDirectory of publishedPackageDirectories())
    execFileSync(command, [...prefix, 'pack', '--pack-destination', directory], {
      cwd: packageDirectory,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  return readdirSync(directory)
    .filter((name) => name.endsWith('.tgz'))
    .sort()
    .map((name) => join(directory, name));
};

/** pnpm as this script was started (`pnpm pack:tarballs` names itself in npm_execpath). */
export const pnpmOfThisRun = (): string[] =>
  process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['pnpm'];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directory = resolve(process.argv[2] ?? join(root, '.tmp/tarballs'));
  const tarballs = packTarballs(directory, pnpmOfThisRun());
  console.log(`\n${tarballs.length} tarballs in ${directory}. In the host's directory:\n`);
  console.log(`npm install ${tarballs.join(' ')}`);
}
