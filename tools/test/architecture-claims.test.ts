import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md and the README make claims about the code: how many ports core has, which
 * libraries core may import, which way dependencies point, how many contract suites there are.
 * Each claim is checked against the code here, so the map cannot drift from it unseen.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const architecture = read('docs/architecture.md');
const readme = read('README.md');

const sourceFiles = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

/** The modules a file imports or re-exports (static `from '…'` specifiers). */
const importsOf = (path: string): string[] =>
  [...read(path).matchAll(/^(?:import|export)[^;]*?\sfrom '([^']+)'/gms)].map((match) => match[1] ?? '');

/** `a/b/c.ts` importing `../d.js` → `a/d.ts`. */
const resolved = (from: string, specifier: string): string =>
  relative(root, join(root, from, '..', specifier)).replace(/\.js$/, '.ts');

const portFiles = readdirSync(join(root, 'packages/core/src/ports')).filter((name) => name.endsWith('.ts'));
const pascal = (file: string) =>
  file
    .replace(/\.ts$/, '')
    .split('-')
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');

describe('the claims of docs/architecture.md and the README', () => {
  it('the ports the map lists are exactly the files of core/src/ports, and their count is said right', () => {
    const listed = /ports\[\["(\d+) ports: ([^"]+)"\]\]/.exec(architecture);
    expect(listed, 'the map lists the ports as `ports[["N ports: A · B"]]`').not.toBeNull();
    const names = (listed?.[2] ?? '').split(' · ').map((name) => name.trim());
    expect([...names].sort()).toEqual(portFiles.map(pascal).sort());
    expect(Number(listed?.[1])).toBe(portFiles.length);
    expect(readme).toContain(`core's ${portFiles.length} ports`);
  });

  it('core imports only the libraries the map names, and those are its dependencies', () => {
    const dependencies = Object.keys(
      (JSON.parse(read('packages/core/package.json')) as { dependencies: Record<string, string> })
        .dependencies,
    ).sort();
    const rule = /\*\*core\*\* imports only these libraries[\s\S]*?No I\/O/.exec(architecture)?.[0] ?? '';
    for (const library of dependencies) expect(rule, `the map names ${library}`).toContain(library);
    const imported = new Set(
      sourceFiles('packages/core/src')
        .flatMap(importsOf)
        .filter((specifier) => !specifier.startsWith('.'))
        .map((specifier) =>
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    expect([...imported].filter((library) => !dependencies.includes(library))).toEqual([]);
  });

  it('adapters and the binding import core only, never another package of the kit', () => {
    const kitImports = ['memory', 'postgres', 's3', 'webhook-transport', 'screening-list', 'express'].flatMap(
      (name) =>
        sourceFiles(`packages/${name}/src`).flatMap((path) =>
          importsOf(path)
            .filter((specifier) => specifier.startsWith('@onboarding-kit/'))
            .map((specifier) => ({ path, specifier })),
        ),
    );
    expect(kitImports.length).toBeGreaterThan(0);
    expect(kitImports.filter(({ specifier }) => !/^@onboarding-kit\/core(\/|$)/.test(specifier))).toEqual([]);
  });

  it('inside core, the domain imports no port, command or service, and ports import no command or service', () => {
    const crossings = sourceFiles('packages/core/src').flatMap((path) =>
      importsOf(path)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ from: path, to: resolved(path, specifier) }))
        .filter(
          ({ from, to }) =>
            (from.includes('/src/domain/') && /\/src\/(ports|commands|services)\//.test(to)) ||
            (from.includes('/src/ports/') && /\/src\/(commands|services)\//.test(to)),
        ),
    );
    expect(crossings).toEqual([]);
  });

  it('the number of ports with a contract suite is said right', () => {
    const suites = readdirSync(join(root, 'packages/contract-tests/src')).filter((name) =>
      portFiles.includes(name.replace(/-contract\.ts$/, '.ts')),
    );
    expect(architecture).toContain(`${suites.length} suites`);
    expect(readme).toContain(`${suites.length} have a contract suite`);
    expect(portFiles.length - suites.length).toBe(6);
  });
  it('no source file of a package imports itself back through others (no import circle)', () => {
    const packageSources = readdirSync(join(root, 'packages')).flatMap((name) =>
      sourceFiles(join('packages', name)).filter((path) => path.includes('/src/')),
    );
    const importsByFile = new Map(
      packageSources.map((path) => [
        path,
        importsOf(path)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => resolved(path, specifier)),
      ]),
    );
    const circles: string[][] = [];
    for (const start of importsByFile.keys()) {
      const seen = new Set<string>();
      const walk = (path: string, trail: string[]): void => {
        for (const next of importsByFile.get(path) ?? []) {
          if (next === start) circles.push([...trail, next]);
          else if (!seen.has(next)) {
            seen.add(next);
            walk(next, [...trail, next]);
          }
        }
      };
      walk(start, [start]);
    }
    expect(circles).toEqual([]);
  });
});
