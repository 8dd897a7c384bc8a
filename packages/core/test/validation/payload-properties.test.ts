import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { checkFilename, documentFilenameSchema, MAX_FILENAME_BYTES } from '../../src/domain/documents.js';
import { batchUploadRequestSchema } from '../../src/schemas/documents.js';
import { exampleEntityPayload, exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/payload-schemas.js';
import { parseRequest, toJsonPath } from '../../src/validation/parse-request.js';

const NUM_RUNS = 300;

type Path = readonly (string | number)[];

const schemas = [
  ['individual', defaultOnboardingPayloadSchemas.individualPayload, exampleIndividualPayload],
  ['entity', defaultOnboardingPayloadSchemas.entityPayload, exampleEntityPayload],
] as const;

/** Parsing never throws: the input is either accepted, or refused with at least one located message. */
const expectValueOrLocatedFailure = (schema: z.ZodType, input: unknown) => {
  const parsed = parseRequest(schema, input);
  if (parsed.isOk()) return;
  expect(parsed.error.type).toBe('ValidationFailed');
  const entries = Object.entries(parsed.error.parameterErrors ?? {});
  expect(entries.length).toBeGreaterThan(0);
  for (const [path, messages] of entries) {
    expect(path).not.toBe('');
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message.length).toBeGreaterThan(0);
  }
  return parsed.error.parameterErrors ?? {};
};

/** Every node under the root: object properties and array items. */
const pathsOf = (value: unknown, prefix: Path = []): Path[] => {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...pathsOf(item, [...prefix, key]),
    ]);
  }
  return [];
};

const parentAndKey = (root: unknown, path: Path) => {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  return { parent, key: path[path.length - 1] as string | number };
};

type Mutation = { readonly kind: 'delete' } | { readonly kind: 'replace'; readonly value: unknown };

/** Applies the mutation in place; a path a previous mutation removed is skipped. */
const mutate = (root: unknown, path: Path, mutation: Mutation) => {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !(key in node)) return;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node !== 'object' || node === null) return;
  const { parent, key } = parentAndKey(root, path);
  if (mutation.kind === 'replace') parent[key] = mutation.value;
  else if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else delete parent[key];
};

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: 'delete' }),
  fc.jsonValue().map((value): Mutation => ({ kind: 'replace', value })),
  fc.string({ unit: 'binary', maxLength: 40 }).map((value): Mutation => ({ kind: 'replace', value })),
  fc
    .constantFrom<unknown>(
      null,
      0,
      -1,
      1.5,
      true,
      '',
      ' ',
      [],
      {},
      ['x'],
      { x: 1 },
      'OTHER',
      'a'.repeat(1001),
    )
    .map((value): Mutation => ({ kind: 'replace', value })),
);

describe.each(schemas)('%s payload properties', (_, schema, example) => {
  const paths = pathsOf(example());
  const stringLeaves = paths.filter(
    (path) => typeof parentAndKey(example(), path).parent[path[path.length - 1] as string] === 'string',
  );

  it('random JSON values never throw and are refused with located messages', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expectValueOrLocatedFailure(schema, input);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('random JavaScript values (null prototypes, odd numbers, nested junk) never throw', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, maxDepth: 3 }), (input) => {
        expectValueOrLocatedFailure(schema, input);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a valid payload with random fields dropped, altered or retyped never throws', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), mutationArbitrary), { minLength: 1, maxLength: 4 }),
        (mutations) => {
          const payload = example();
          for (const [path, mutation] of mutations) mutate(payload, path, mutation);
          expectValueOrLocatedFailure(schema, payload);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a string field retyped to a number is reported at exactly its path', () => {
    fc.assert(
      fc.property(fc.constantFrom(...stringLeaves), fc.double(), (path, value) => {
        const payload = example();
        mutate(payload, path, { kind: 'replace', value });
        const errors = expectValueOrLocatedFailure(schema, payload);
        expect(errors).toHaveProperty([toJsonPath(path)]);
      }),
      { numRuns: Math.min(NUM_RUNS, stringLeaves.length * 3) },
    );
  });

  it('an unknown property anywhere is reported at its path', () => {
    const objectPaths: Path[] = [[], ...paths].filter((path) => {
      const node = path.reduce<unknown>(
        (value, key) => (value as Record<string | number, unknown>)[key],
        example(),
      );
      return typeof node === 'object' && node !== null && !Array.isArray(node);
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...objectPaths),
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => /^[a-z]\w*$/i.test(key)),
        (path, key) => {
          const payload = example() as unknown as Record<string, unknown>;
          const node = path.reduce<unknown>(
            (value, segment) => (value as Record<string | number, unknown>)[segment],
            payload,
          );
          const target = node as Record<string, unknown>;
          if (key in target) return;
          target[key] = 'surprise';
          const errors = expectValueOrLocatedFailure(schema, payload);
          expect(errors?.[toJsonPath([...path, key])]).toEqual(['Unknown property']);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('filename properties', () => {
  it('checkFilename never throws, and an accepted name is NFC, 1..255 bytes, and agrees with the schema', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string({ unit: 'grapheme', maxLength: 80 }),
        ),
        (name) => {
          const checked = checkFilename(name);
          const parsed = documentFilenameSchema.safeParse(name);
          expect(parsed.success).toBe(checked.isOk());
          if (checked.isOk()) {
            const normalized = checked.value;
            expect(normalized).toBe(name.normalize('NFC'));
            expect(parsed.data).toBe(normalized);
            const bytes = new TextEncoder().encode(normalized).length;
            expect(bytes).toBeGreaterThanOrEqual(1);
            expect(bytes).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
            expect(/[/\\]/.test(normalized)).toBe(false);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a batch of random names never throws and reports only at filenames or filenames[i]', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 60 }), (filenames) => {
        const errors = expectValueOrLocatedFailure(batchUploadRequestSchema, { filenames });
        for (const path of Object.keys(errors ?? {})) expect(path).toMatch(/^filenames(\[\d+\])?$/);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
