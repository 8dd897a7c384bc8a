import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md and the README make claims about the code: how many ports core has, which
 * libraries core and every package may import, which way dependencies point, which ports have a
 * contract suite and that every adapter runs the suite of each port it implements, where core sets
 * timers, how long the memory and PostgreSQL adapters are, which routes take an Idempotency-Key,
 * which services the kit has. Each claim is checked against the code here, so the map cannot drift
 * from it unseen.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** The docs with every run of whitespace (a line break included) as one space, for claims read in them. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const architecture = flat(read('docs/architecture.md'));
const readme = flat(read('README.md'));

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

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const libraryOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const adapterPackages = ['memory', 'postgres', 's3', 'webhook-transport', 'screening-list'];
const contractSuiteFiles = readdirSync(join(root, 'packages/contract-tests/src')).filter((name) =>
  name.endsWith('-contract.ts'),
);

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
    // Biome refuses any other import in core: its list is the same libraries.
    const biome = JSON.parse(read('biome.json')) as {
      overrides: { includes: string[]; linter?: { rules?: { style?: { noRestrictedImports?: unknown } } } }[];
    };
    const coreRule = biome.overrides.find(({ includes }) => includes.includes('packages/core/src/**'));
    const groups = JSON.stringify(coreRule?.linter?.rules?.style?.noRestrictedImports ?? {});
    const allowedByBiome = new Set(
      [...groups.matchAll(/"!([^"]+)"/g)]
        .map((match) => (match[1] ?? '').replace(/\/\*\*$/, ''))
        .filter((name) => !name.startsWith('.')),
    );
    expect([...allowedByBiome].sort()).toEqual(dependencies);
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

  it('inside core, the domain imports no port, command or service, ports no command or service, commands no service', () => {
    const crossings = sourceFiles('packages/core/src').flatMap((path) =>
      importsOf(path)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ from: path, to: resolved(path, specifier) }))
        .filter(
          ({ from, to }) =>
            (from.includes('/src/domain/') && /\/src\/(ports|commands|services)\//.test(to)) ||
            (from.includes('/src/ports/') && /\/src\/(commands|services)\//.test(to)) ||
            (from.includes('/src/commands/') && /\/src\/services\//.test(to)),
        ),
    );
    expect(crossings).toEqual([]);
  });

  it('the ports with a contract suite and those without are said right', () => {
    const suites = portFiles.filter((file) =>
      contractSuiteFiles.includes(file.replace(/\.ts$/, '-contract.ts')),
    );
    const without = portFiles.filter((file) => !suites.includes(file)).map(pascal);
    expect(architecture).toContain(`${suites.length} port suites`);
    expect(readme).toContain(`${suites.length} have a contract suite`);
    expect(architecture).toContain(`the ${without.length} ports without one are`);
    expect(readme).toContain(`the other ${without.length} are`);
    // The map names each port without a suite, by its type, in the sentence that counts them.
    const sentence = /the \d+ ports without one are ([^.]*)\./.exec(architecture)?.[1] ?? '';
    const named = [...sentence.matchAll(/`(\w+)`/g)].map((match) => match[1]);
    expect(named.sort()).toEqual([...without].sort());
  });

  it('every adapter package runs the contract suite of each port it implements', () => {
    const suitePorts = portFiles
      .filter((file) => contractSuiteFiles.includes(file.replace(/\.ts$/, '-contract.ts')))
      .map(pascal);
    const runs: { adapter: string; port: string; runsItsSuite: boolean }[] = [];
    for (const adapter of adapterPackages) {
      const source = sourceFiles(`packages/${adapter}/src`).map(read).join('\n');
      const tests = sourceFiles(`packages/${adapter}/test`).map(read).join('\n');
      for (const port of suitePorts) {
        // An implementation is declared with the port as its type: `(…): Port =>`, `): Port {`,
        // `const x: Port = {`.
        const implemented = new RegExp(`\\)\\s*:\\s*${port}\\s*(=>|\\{)|:\\s*${port}\\s*=\\s*\\{`).test(
          source,
        );
        if (implemented)
          runs.push({ adapter, port, runsItsSuite: new RegExp(`\\brun${port}Contract\\(`).test(tests) });
      }
    }
    // Every port with a suite has at least one adapter, so the check above checked something.
    expect([...new Set(runs.map(({ port }) => port))].sort()).toEqual([...suitePorts].sort());
    expect(runs.filter(({ runsItsSuite }) => !runsItsSuite)).toEqual([]);
    // What the map says: "memory runs all 13, PostgreSQL the 12 but `DocumentStorage`, s3 that one".
    const countOf = (adapter: string) => runs.filter((run) => run.adapter === adapter).length;
    expect(architecture).toContain(
      `memory runs all ${countOf('memory')}, PostgreSQL the ${countOf('postgres')} but \`DocumentStorage\``,
    );
    expect(countOf('memory')).toBe(suitePorts.length);
    expect(runs.filter(({ adapter }) => adapter === 's3').map(({ port }) => port)).toEqual([
      'DocumentStorage',
    ]);
    expect(runs.some(({ adapter, port }) => adapter === 'postgres' && port === 'DocumentStorage')).toBe(
      false,
    );
  });

  it('the suites across ports are named in the map and run on memory and PostgreSQL', () => {
    const acrossPorts = contractSuiteFiles
      .filter((file) => !portFiles.includes(file.replace(/-contract\.ts$/, '.ts')))
      .map((file) => `run${pascal(file.replace(/-contract\.ts$/, '.ts'))}Contract`);
    expect(acrossPorts.length).toBeGreaterThan(0);
    const words = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    expect(architecture).toContain(`${words[acrossPorts.length]} more suites check behaviour across ports`);
    for (const adapter of ['memory', 'postgres']) {
      const tests = sourceFiles(`packages/${adapter}/test`).map(read).join('\n');
      for (const suite of acrossPorts) {
        expect(architecture, suite).toContain(`\`${suite}\``);
        expect(tests, `${adapter} runs ${suite}`).toMatch(new RegExp(`\\b${suite}\\(`));
      }
    }
  });

  it('the contract-tests README lists every suite the package exports', () => {
    const exported = [...read('packages/contract-tests/src/index.ts').matchAll(/\b(run\w+Contract)\b/g)].map(
      (match) => match[1] ?? '',
    );
    expect(exported.length).toBe(contractSuiteFiles.length);
    const contractReadme = read('packages/contract-tests/README.md');
    expect(exported.filter((suite) => !contractReadme.includes(`\`${suite}\``))).toEqual([]);
  });

  it('core sets timers only in the files the map names', () => {
    const rule = /Timers only in ([^;]*);/.exec(architecture)?.[1] ?? '';
    const named = [...rule.matchAll(/`([\w/-]+\.ts)`/g)].map((match) => `packages/core/src/${match[1]}`);
    const timers = sourceFiles('packages/core/src').filter((path) =>
      /\bset(Timeout|Interval|Immediate)\s*\(/.test(read(path)),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(timers.sort()).toEqual(named.sort());
  });

  it('every package imports only the libraries its package.json declares', () => {
    const undeclared = readdirSync(join(root, 'packages')).flatMap((name) => {
      const manifest = JSON.parse(read(`packages/${name}/package.json`)) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const declared = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      return sourceFiles(`packages/${name}/src`).flatMap((path) =>
        [...importsOf(path), ...[...read(path).matchAll(/\bimport\(\s*'([^']+)'/g)].map((m) => m[1] ?? '')]
          .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
          .map((specifier) => libraryOf(specifier))
          .filter((library) => !declared.has(library))
          .map((library) => `${path}: ${library}`),
      );
    });
    expect(undeclared).toEqual([]);
  });

  it('the memory and PostgreSQL adapters are as long as the map says', () => {
    const lines = (folder: string) =>
      readdirSync(join(root, folder))
        .filter((name) => name.endsWith('.ts'))
        .reduce((total, name) => total + (read(`${folder}/${name}`).match(/\n/g)?.length ?? 0), 0);
    const said = /`packages\/memory\/src` is ([\d,]+) lines and\s+`packages\/postgres\/src` ([\d,]+)/.exec(
      architecture,
    );
    expect(said, 'the map gives both sizes').not.toBeNull();
    const figure = (text = '') => Number(text.replace(/,/g, ''));
    expect({ memory: figure(said?.[1]), postgres: figure(said?.[2]) }).toEqual({
      memory: lines('packages/memory/src'),
      postgres: lines('packages/postgres/src'),
    });
  });

  it('the routes that take an Idempotency-Key are exactly the idempotent routes of the registry', () => {
    const registry = [
      ...read('packages/express/src/interface-operations.ts').matchAll(
        /interfaces: \[([^\]]*)\],\s*method: '(\w+)',\s*path: '([^']+)',\s*idempotent: (true|false)/g,
      ),
    ];
    expect(registry.length).toBeGreaterThan(20);
    const keyed = (kind: string) =>
      registry
        .filter(
          ([, interfaces = '', , , idempotent]) => idempotent === 'true' && interfaces.includes(`'${kind}'`),
        )
        .map(([, , method = '', path]) => `${method.toUpperCase()} ${path}`)
        .sort();
    for (const kind of ['manager', 'client', 'compliance']) {
      const row = new RegExp(`^\\| ${kind} \\| (.*) \\|$`, 'm').exec(read('docs/architecture.md'))?.[1] ?? '';
      const listed = [...row.matchAll(/`([A-Z]+ [^`]+)`/g)].map((match) => match[1]).sort();
      expect(listed, kind).toEqual(keyed(kind));
    }
    // "They are every POST, PUT and DELETE": no write goes without one.
    expect(
      registry.filter(([, , method, , idempotent]) => method !== 'get' && idempotent !== 'true'),
    ).toEqual([]);
  });

  it("the map's core box names every service of the kit", () => {
    const services = [
      ...read('packages/core/src/onboarding-kit.ts').matchAll(/readonly (\w+): (\w+)Service;/g),
    ].map((match) => match[1] ?? '');
    expect(services.length).toBeGreaterThan(5);
    const box = /services\[([^\]]*)\]/.exec(architecture)?.[1] ?? '';
    expect(services.filter((service) => !box.includes(`kit.${service}`))).toEqual([]);
    // decisions.md, "Code shape": each service's interface lives beside its factory, in
    // services/<name>-service.ts.
    const composition = read('packages/core/src/onboarding-kit.ts');
    const types = [...composition.matchAll(/readonly \w+: (\w+)Service;/g)].map((match) => match[1] ?? '');
    const misplaced = types.filter((type) => {
      const file = `services/${type.replace(/(?<!^)([A-Z])/g, '-$1').toLowerCase()}-service`;
      const declared = new RegExp(`export (?:interface|type) ${type}Service\\b`).test(
        read(`packages/core/src/${file}.ts`),
      );
      return !declared || !composition.includes(`import type { ${type}Service } from './${file}.js'`);
    });
    expect(misplaced).toEqual([]);
  });

  it("the README's test projects are the suite's projects, and test:fast runs the two it says", () => {
    const configs = [
      'vitest.in-process.config.ts',
      'tools/vitest.config.ts',
      ...['packages', 'examples'].flatMap((folder) =>
        readdirSync(join(root, folder)).flatMap((name) =>
          readdirSync(join(root, folder, name))
            .filter((file) => /^vitest(\.\w+)?\.config\.ts$/.test(file))
            .map((file) => `${folder}/${name}/${file}`),
        ),
      ),
    ];
    const projects = configs
      .flatMap((path) =>
        [...read(path).matchAll(/(?:packageProject\(|name: )'([\w-]+)'/g)].map((m) => m[1] ?? ''),
      )
      .sort();
    expect(projects.length).toBeGreaterThan(5);
    const listed = /\(projects: ([^;)]*)[;)]/.exec(readme)?.[1] ?? '';
    const named = listed.split(/,\s*/).sort();
    expect(named).toEqual(projects);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:fast']).toBe('vitest run --project in-process --project express');
    // Every project the READMEs and the map name (`--project x`, project `x`) is one of them (the
    // performance and decisions records keep the commands as they were run).
    const docs = [
      'README.md',
      'docs/architecture.md',
      ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`),
    ];
    const unknown = docs.flatMap((doc) =>
      [...flat(read(doc)).matchAll(/(?:--project |project `)([\w-]+)/g)]
        .map((match) => match[1] ?? '')
        .filter((name) => !projects.includes(name))
        .map((name) => `${doc}: ${name}`),
    );
    expect(unknown).toEqual([]);
    expect(readme).toContain('`test:fast` runs the in-process and express projects');
  });

  it("the README's repository layout has a line for every package and example", () => {
    const block = /## Repository layout\n\n```\n([\s\S]*?)\n```/.exec(read('README.md'))?.[1] ?? '';
    expect(block).not.toBe('');
    const folders = ['packages', 'examples'].flatMap((folder) =>
      readdirSync(join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${folder}/${entry.name}`),
    );
    expect(folders.filter((folder) => !block.includes(`${folder} `))).toEqual([]);
    // And the Packages table a row for every package, named as its manifest names it.
    const names = readdirSync(join(root, 'packages')).map(
      (folder) => (JSON.parse(read(`packages/${folder}/package.json`)) as { name: string }).name,
    );
    expect(names.filter((name) => !new RegExp(`^\\| \`${name}\` \\|`, 'm').test(read('README.md')))).toEqual(
      [],
    );
  });

  it('the memory README names every testing helper, and only those', () => {
    const helpers = /const testingHelpers = \([\s\S]*?\) => \(\{([\s\S]*?)\n\}\);/.exec(
      read('packages/memory/src/memory-adapters.ts'),
    )?.[1];
    const names = [...(helpers ?? '').matchAll(/^ {2}(\w+)[:(]/gm)].map((match) => match[1] ?? '');
    expect(names.length).toBeGreaterThan(10);
    const section = read('packages/memory/README.md').split('## `adapters.testing`')[1] ?? '';
    const named = [...section.matchAll(/`(\w+)\(/g)].map((match) => match[1] ?? '');
    expect([...new Set(named)].sort()).toEqual([...names].sort());
  });

  it("decisions.md says how many runtime names core's root exports, within the bound it sets", () => {
    const values = read('docs/api/core.exports.txt')
      .split('\n')
      .filter((line) => line.startsWith('value '));
    const said = /`verifyWebhook` \((\d+) runtime names[^;]*; bound (\d+)/.exec(
      flat(read('docs/decisions.md')),
    );
    expect(said, 'decisions.md states the count and the bound').not.toBeNull();
    expect(Number(said?.[1])).toBe(values.length);
    expect(values.length).toBeLessThanOrEqual(Number(said?.[2]));
  });

  it("the postgres README's job runner options are every option of startPostgresJobRunner", () => {
    const type = /export type PostgresJobRunnerOptions = \{([\s\S]*?)\n\};/.exec(
      read('packages/postgres/src/postgres-job-runner.ts'),
    )?.[1];
    const options = [...(type ?? '').matchAll(/readonly (\w+)\??:/g)]
      .map((match) => match[1] ?? '')
      .filter((name) => !['pool', 'kit', 'schema'].includes(name));
    expect(options.length).toBeGreaterThan(5);
    const bullet = /- Options: ([\s\S]*?)\n- /.exec(read('packages/postgres/README.md'))?.[1] ?? '';
    const named = [...bullet.matchAll(/`(\w+)`/g)].map((match) => match[1] ?? '');
    expect(named.filter((name) => name !== 'null').sort()).toEqual([...options].sort());
  });

  it('the options tables of the memory and S3 READMEs name every option of their function', () => {
    const keysOf = (folder: string, ...types: string[]) => {
      const source = sourceFiles(folder).map(read).join('\n');
      return types.flatMap((type) => {
        const body = new RegExp(`export type ${type} = (?:\\w+ & )?\\{([\\s\\S]*?)\\n\\};`).exec(source)?.[1];
        expect(body, type).toBeDefined();
        return [...(body ?? '').matchAll(/^ {2}readonly (\w+)\??:/gm)].map((match) => match[1] ?? '');
      });
    };
    const tableOf = (readmePath: string) => {
      const text = read(readmePath);
      const table = text.slice(
        text.indexOf('## Options of'),
        text.indexOf('\n## ', text.indexOf('## Options of') + 1),
      );
      return [...table.matchAll(/^\| `(\w+)`/gm)].map((match) => match[1] ?? '');
    };
    expect(tableOf('packages/memory/README.md').sort()).toEqual(
      [
        ...new Set(keysOf('packages/memory/src', 'MemoryAdaptersOptions', 'MemoryDocumentStorageOptions')),
      ].sort(),
    );
    expect(tableOf('packages/s3/README.md').sort()).toEqual(
      keysOf('packages/s3/src', 'S3DocumentStorageOptions').sort(),
    );
  });

  it('the step-by-step create and approve name functions that are in the files they name, writes in order', () => {
    const text = read('docs/architecture.md');
    const start = text.indexOf('## One create and one approve, step by step');
    expect(start).toBeGreaterThan(-1);
    const section = text.slice(start, text.indexOf('\n## ', start + 1));
    // Steps: the numbered items and the paragraphs (the approve).
    const steps = section
      .split(/\n(?=\d+\. )|\n\n/)
      .slice(1)
      .filter((step) => step.trim() !== '');
    expect(steps.length).toBeGreaterThanOrEqual(7);
    const missing: string[] = [];
    const outOfOrder: string[] = [];
    for (const step of steps) {
      const tokens = [...step.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
      const files = tokens.filter((token) => token.startsWith('packages/') && token.endsWith('.ts'));
      // A step with no file of its own is about the request before it (its path and verb).
      if (files.length === 0) continue;
      const sources = files.map((file) => read(file).replace(/\s+\./g, '.'));
      const names = tokens.filter((token) => /^[a-zA-Z][\w.]*$/.test(token));
      for (const name of names) {
        const last = name.split('.').at(-1) ?? '';
        if (!sources.some((source) => new RegExp(`\\b${last}\\b`).test(source)))
          missing.push(`${name} in ${files.join(', ')}`);
      }
      // A step that says its writes come "one ... after the other" lists them in the source's order.
      if (/after the other/.test(step)) {
        const writes = names.filter((name) => /^(clients|documents|screeningJobs|events|audit)\./.test(name));
        expect(writes.length).toBeGreaterThan(2);
        const at = writes.map((name) => Math.max(...sources.map((source) => source.indexOf(`tx.${name}(`))));
        if (at.some((index, i) => index === -1 || (i > 0 && index < (at[i - 1] ?? 0))))
          outOfOrder.push(writes.map((name, i) => `${name}@${at[i]}`).join(' '));
      }
    }
    expect(missing).toEqual([]);
    expect(outOfOrder).toEqual([]);
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
