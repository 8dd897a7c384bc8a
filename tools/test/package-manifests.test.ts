import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * The release rules of docs/decisions.md ("Releases"), checked on every publishable package: what
 * `files` names exists or is written by `changeset version`, the kit's packages peer on each other
 * with `workspace:^` (the published range follows the version released), they share one
 * version (a `fixed` group), and they agree on engines and repository.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

type Manifest = {
  name: string;
  private?: boolean;
  files?: string[];
  engines?: { node?: string };
  peerDependencies?: Record<string, string>;
  repository?: { url?: string; directory?: string };
};

const publishable = readdirSync(join(root, 'packages'))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ manifest }) => manifest.private !== true);

const changesetConfig = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as {
  changelog: unknown;
  fixed: string[][];
};

test('the publishable packages agree on what they ship, their peers, engines and repository', () => {
  expect(publishable.length).toBeGreaterThan(5);
  // `changeset version` writes each package's CHANGELOG.md before `pnpm release` publishes it.
  expect(changesetConfig.changelog).not.toBe(false);
  const [fixed = []] = changesetConfig.fixed;
  for (const { folder, manifest } of publishable) {
    for (const entry of manifest.files ?? []) {
      if (entry === 'CHANGELOG.md' || entry === 'dist') continue; // written by changeset version / the build
      expect(
        existsSync(join(root, 'packages', folder, entry)),
        `${manifest.name}: files names ${entry}`,
      ).toBe(true);
    }
    for (const [dependency, range] of Object.entries(manifest.peerDependencies ?? {})) {
      if (dependency.startsWith('@onboarding-kit/'))
        expect(range, `${manifest.name} → ${dependency}`).toBe('workspace:^');
    }
    expect(fixed, `${manifest.name} is released with the others, at one version`).toContain(manifest.name);
    expect(manifest.engines?.node, manifest.name).toBe('>=20.19');
    expect(manifest.repository?.url, manifest.name).toBe(publishable[0]?.manifest.repository?.url);
    expect(manifest.repository?.directory, manifest.name).toBe(`packages/${folder}`);
  }
});
