/**
 * `pnpm check:tarballs`: an app outside this repository, installed from the packed tarballs, passes
 * its own tests and type-checks against the packages' published types. The app is examples/host-app
 * (its src/ and every test of it that needs nothing of this repository), copied to a directory under
 * the system's temporary directory, so no workspace link or hoisted module of the repository can
 * stand in for a missing file of a tarball. npm installs the tarballs next to the app's other
 * dependencies, at the versions host-app declares. CI runs it on Node 24 (.ci/run), after
 * check:packages built the packages (`--built`: not again).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTarballs, pnpmOfThisRun } from './pack-tarballs.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const hostApp = join(root, 'examples/host-app');
type Manifest = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const readManifest = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8')) as Manifest;

/** The app's tests that import nothing of the repository (its test-support): the others stay behind. */
const portableTests = (): { copied: string[]; left: string[] } => {
  const files = readdirSync(join(hostApp, 'test')).filter((name) => name.endsWith('.test.ts'));
  const needsRepository = (name: string) =>
    /from '\.\.\/\.\.\/\.\.\//.test(readFileSync(join(hostApp, 'test', name), 'utf8'));
  return { copied: files.filter((name) => !needsRepository(name)), left: files.filter(needsRepository) };
};

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'onboarding-kit-outside-host-'));
try {
  const tarballs = packTarballs(join(work, 'tarballs'), pnpmOfThisRun(), process.argv.includes('--built'));
  const app = join(work, 'portal');
  mkdirSync(join(app, 'test'), { recursive: true });
  cpSync(join(hostApp, 'src'), join(app, 'src'), { recursive: true });
  const { copied, left } = portableTests();
  if (copied.length === 0) throw new Error('host-app has no test that runs outside the repository');
  for (const name of copied) cpSync(join(hostApp, 'test', name), join(app, 'test', name));

  // host-app's dependencies at its own versions, the kit's from the tarballs; vitest and TypeScript
  // at the repository's versions.
  const own = readManifest(join(hostApp, 'package.json'));
  const repository = readManifest(join(root, 'package.json'));
  const fromRegistry = (deps: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(deps).filter(([, version]) => !version.startsWith('workspace:')));
  const kitTarball = (name: string) => {
    const file = tarballs.find((path) =>
      basename(path).startsWith(`${name.replace('@', '').replace('/', '-')}-`),
    );
    if (file === undefined) throw new Error(`no tarball for ${name}`);
    return `file:${file}`;
  };
  const kitPackages = Object.entries(own.dependencies ?? {})
    .filter(([, version]) => version.startsWith('workspace:'))
    .map(([name]) => name);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'outside-portal',
        private: true,
        type: 'module',
        scripts: { test: 'vitest run', typecheck: 'tsc --noEmit' },
        dependencies: {
          ...fromRegistry(own.dependencies),
          ...Object.fromEntries(kitPackages.map((name) => [name, kitTarball(name)])),
        },
        devDependencies: {
          ...fromRegistry(own.devDependencies),
          vitest: repository.devDependencies?.vitest,
          typescript: repository.devDependencies?.typescript,
          '@types/node': repository.devDependencies?.['@types/node'],
        },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        include: ['src', 'test'],
      },
      null,
      2,
    )}\n`,
  );
  // npm as a host runs it: without the settings pnpm passes its scripts (npm_config_*).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')),
  );
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: app, stdio: 'inherit', env: { ...env, npm_config_fund: 'false' } });
  run('npm', ['install', '--no-audit', '--no-package-lock']);
  run('npx', ['--no-install', 'tsc', '--noEmit']);
  run('npx', ['--no-install', 'vitest', 'run']);
  console.log(
    `outside host app on Node ${process.version}: ${tarballs.length} tarballs (${kitPackages.join(', ')} used), ` +
      `type-checked, ${copied.length} test files passed (${copied.join(', ')}); left behind, needing the repository: ${left.join(', ') || 'none'}; ` +
      `${Math.round((Date.now() - started) / 1000)} s`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
