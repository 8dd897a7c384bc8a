import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every doc the repository tests read: the README, each package's and example's, and docs/. */
export const markdownFiles = (): string[] => [
  'README.md',
  ...['packages', 'examples'].flatMap((folder) =>
    readdirSync(join(root, folder))
      .map((name) => `${folder}/${name}/README.md`)
      .filter((path) => existsSync(join(root, path))),
  ),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
