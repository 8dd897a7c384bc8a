import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import {
  type MigratedDatabase,
  newSchemaName,
  openMigratedDatabase,
  workerDatabaseUrl,
} from './postgres-test-database.js';

const shipped = async () =>
  (await readdir(fileURLToPath(new URL('../migrations/', import.meta.url))))
    .filter((f) => f.endsWith('.sql'))
    .sort();

/**
 * What a database of an earlier release goes through: a schema migrated with the shipped files
 * before `migration`, rows stored by `storeBefore`, then the files from `migration` on applied (and
 * only those); `check` reads the rows after. The schema is dropped however it ends.
 */
const migratingFrom = async (
  migration: string,
  storeBefore: (pool: pg.Pool, schema: string) => Promise<void>,
  check: (pool: pg.Pool, schema: string) => Promise<void>,
): Promise<void> => {
  const pool = new pg.Pool({ connectionString: await workerDatabaseUrl(), max: 2 });
  const schema = newSchemaName();
  const source = fileURLToPath(new URL('../migrations/', import.meta.url));
  const directory = await mkdtemp(join(tmpdir(), 'kit-migrations-'));
  try {
    const files = await shipped();
    for (const file of files.filter((name) => name < migration))
      await copyFile(join(source, file), join(directory, file));
    await migrate(pool, { schema, migrationsDirectory: directory });
    await storeBefore(pool, schema);
    for (const file of files) await copyFile(join(source, file), join(directory, file));
    expect((await migrate(pool, { schema, migrationsDirectory: directory }))._unsafeUnwrap().applied).toEqual(
      files.filter((name) => name >= migration),
    );
    await check(pool, schema);
  } finally {
    await pool.query(
      `DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`,
    );
    await pool.end();
    await rm(directory, { recursive: true, force: true });
  }
};

describe('migrate', () => {
  it('applies every shipped file once, records it, and applies nothing the second time', async () => {
    const pool = new pg.Pool({ connectionString: await workerDatabaseUrl(), max: 2 });
    const schema = newSchemaName();
    try {
      const first = await migrate(pool, { schema });
      expect(first._unsafeUnwrap().applied).toEqual(await shipped());
      const second = await migrate(pool, { schema });
      expect(second._unsafeUnwrap().applied).toEqual([]);
      const recorded = await pool.query(`SELECT name FROM "${schema}".schema_migrations ORDER BY name`);
      expect(recorded.rows.map((row) => row.name)).toEqual(await shipped());
    } finally {
      await pool.end();
    }
  });

  it('is safe when several instances start at once: each file runs exactly once', async () => {
    const schema = newSchemaName();
    const connectionString = await workerDatabaseUrl();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString, max: 1 }));
    try {
      const outcomes = await Promise.all(pools.map((pool) => migrate(pool, { schema })));
      const applied = outcomes.map((outcome) => outcome._unsafeUnwrap().applied);
      // One instance applied everything under the advisory lock; the others found it done.
      expect(applied.filter((names) => names.length > 0)).toEqual([await shipped()]);
      const tables = await pools[0]?.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`,
        [schema],
      );
      expect(tables?.rows[0]?.n).toBe(19);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('reports a failing migration file as MigrationFailed and keeps nothing of it', async () => {
    const pool = new pg.Pool({ connectionString: await workerDatabaseUrl(), max: 1 });
    const schema = newSchemaName();
    const directory = fileURLToPath(new URL('./fixtures/broken-migrations/', import.meta.url));
    try {
      const outcome = await migrate(pool, { schema, migrationsDirectory: directory });
      expect(outcome._unsafeUnwrapErr()).toMatchObject({
        type: 'MigrationFailed',
        migration: '0002_broken.sql',
      });
      const recorded = await pool.query(`SELECT name FROM "${schema}".schema_migrations`);
      expect(recorded.rows.map((row) => row.name)).toEqual(['0001_ok.sql']);
      const halfDone = await pool.query(`SELECT to_regclass($1) AS t`, [`"${schema}".never_created`]);
      expect(halfDone.rows[0]?.t).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('applies only the files added since the last run, in name order', async () => {
    const pool = new pg.Pool({ connectionString: await workerDatabaseUrl(), max: 1 });
    const schema = newSchemaName();
    const fixtures = fileURLToPath(new URL('./fixtures/broken-migrations/', import.meta.url));
    const directory = await mkdtemp(join(tmpdir(), 'kit-migrations-'));
    try {
      await copyFile(join(fixtures, '0001_ok.sql'), join(directory, '0001_ok.sql'));
      expect(
        (await migrate(pool, { schema, migrationsDirectory: directory }))._unsafeUnwrap().applied,
      ).toEqual(['0001_ok.sql']);
      // A later release ships two more files: the first run applied 0001 already.
      await writeFile(
        join(directory, '0003_third.sql'),
        'ALTER TABLE kept_by_first ADD COLUMN third integer;',
      );
      await writeFile(
        join(directory, '0002_second.sql'),
        'ALTER TABLE kept_by_first ADD COLUMN second integer;',
      );
      expect(
        (await migrate(pool, { schema, migrationsDirectory: directory }))._unsafeUnwrap().applied,
      ).toEqual(['0002_second.sql', '0003_third.sql']);
      const columns = await pool.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'kept_by_first' ORDER BY ordinal_position`,
        [schema],
      );
      expect(columns.rows.map((row) => row.column_name)).toEqual(['id', 'second', 'third']);
    } finally {
      await pool.end();
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('migration 0015 writes a null date of birth into the people of the clients stored before it', async () => {
    const [individual, entity] = [randomUUID(), randomUUID()];
    await migratingFrom(
      '0015',
      async (pool, schema) => {
        const insert = (id: string, type: string, profile: unknown, officers: unknown) =>
          pool.query(
            `INSERT INTO "${schema}".clients (id, manager_id, client_type, status, individual_profile,
               company_directors_and_ubos, created_at, updated_at)
             VALUES ($1, 'm-1', $2, 'ONBOARDING_UNDER_REVIEW', $3, $4, now(), now())`,
            [
              id,
              type,
              profile === null ? null : JSON.stringify(profile),
              officers === null ? null : JSON.stringify(officers),
            ],
          );
        await insert(individual, 'INDIVIDUAL', { firstName: 'Ivan', lastName: 'Petrov' }, null);
        await insert(entity, 'ENTITY', null, {
          directors: [{ name: 'Ivan Petrov' }, { name: 'Olga Petrova' }],
          ubos: [
            { name: 'Ivan Petrov', typeOfPerson: 'NATURAL' },
            { name: 'Petrov Holding', typeOfPerson: 'LEGAL' },
          ],
        });
      },
      async (pool, schema) => {
        const rows = await pool.query(
          `SELECT id, individual_profile, company_directors_and_ubos FROM "${schema}".clients`,
        );
        const byId = new Map(rows.rows.map((row) => [row.id, row]));
        expect(byId.get(individual)?.individual_profile).toEqual({
          firstName: 'Ivan',
          lastName: 'Petrov',
          dateOfBirth: null,
        });
        // Directors and natural UBOs get the field, in their order; a legal UBO is no person.
        expect(byId.get(entity)?.company_directors_and_ubos).toEqual({
          directors: [
            { name: 'Ivan Petrov', dateOfBirth: null },
            { name: 'Olga Petrova', dateOfBirth: null },
          ],
          ubos: [
            { name: 'Ivan Petrov', typeOfPerson: 'NATURAL', dateOfBirth: null },
            { name: 'Petrov Holding', typeOfPerson: 'LEGAL' },
          ],
        });
      },
    );
  });

  it('migration 0018 gives the explanation of every hit stored before it a null birth-date evidence', async () => {
    const explanation = {
      summary: 'sokolov = sokolov',
      tokens: [],
      unmatchedSubject: [],
      unmatchedListed: [],
    };
    const hit = (id: string, explained: unknown) => ({ id, name: 'Dmitri Sokolov', explanation: explained });
    const weighed = { subject: '1961-04-12', listed: ['1961'], outcome: 'MATCH' };
    const screening = {
      status: 'POSSIBLE_MATCH',
      screenedAt: '2026-11-01T00:00:00.000Z',
      hits: [
        hit('before', { ...explanation, country: null }),
        hit('unexplained', null),
        hit('weighed', { ...explanation, country: null, birthDate: weighed }),
      ],
    };
    const [stored, clear, unscreened] = [randomUUID(), randomUUID(), randomUUID()];
    await migratingFrom(
      '0018',
      async (pool, schema) => {
        for (const [id, value] of [
          [stored, screening],
          [clear, { status: 'CLEAR', screenedAt: null, hits: [] }],
          [unscreened, null],
        ] as const) {
          await pool.query(
            `INSERT INTO "${schema}".clients (id, manager_id, client_type, status, screening, created_at, updated_at)
             VALUES ($1, 'm-1', 'INDIVIDUAL', 'ONBOARDING_UNDER_REVIEW', $2, now(), now())`,
            [id, value === null ? null : JSON.stringify(value)],
          );
        }
      },
      async (pool, schema) => {
        const rows = await pool.query(`SELECT id, screening FROM "${schema}".clients`);
        const byId = new Map(rows.rows.map((row) => [row.id, row.screening]));
        // In their order; a hit without an explanation and one already weighed are kept as they were.
        expect(byId.get(stored)).toEqual({
          ...screening,
          hits: [
            hit('before', { ...explanation, country: null, birthDate: null }),
            hit('unexplained', null),
            hit('weighed', { ...explanation, country: null, birthDate: weighed }),
          ],
        });
        expect(byId.get(clear)).toEqual({ status: 'CLEAR', screenedAt: null, hits: [] });
        expect(byId.get(unscreened)).toBeNull();
      },
    );
  });

  it('migration 0019 redacts the fingerprints of the records of clients redacted before it', async () => {
    const [redacted, live] = [randomUUID(), randomUUID()];
    const digest = 'a'.repeat(64);
    const redirect = { kind: 'response', status: 303, body: { location: '/notes' } };
    const created = { kind: 'command', ok: true, value: { id: redacted, company: null } };
    const refused = { kind: 'command', ok: false, error: { type: 'InvalidStatus', clientId: redacted } };
    // scope, key, state, outcome: each kind of record a request carrying the client left.
    const records = [
      [`manager:m-1 POST /host/clients/${redacted.toUpperCase()}/notes`, 'note', redirect],
      ['manager:m-1 POST /manager/v1/clients/entities []', 'create', created],
      [
        `compliance:c-1 POST /compliance/v1/clients/:clientId/terms-signed [["clientId","${redacted}"]]`,
        'terms',
        refused,
      ],
      [
        `manager:m-1 PUT /manager/v1/clients/entities/:clientId/onboarding [["clientId","${redacted}"]]`,
        'running',
        null,
      ],
      [`manager:m-1 POST /host/clients/${live}/notes`, 'other', redirect],
    ] as const;
    await migratingFrom(
      '0019',
      async (pool, schema) => {
        for (const [id, status, redactedAt] of [
          [redacted, 'DELETED', 'now()'],
          [live, 'ONBOARDING_UNDER_REVIEW', 'NULL'],
        ] as const) {
          await pool.query(
            `INSERT INTO "${schema}".clients (id, manager_id, client_type, status, created_at, updated_at, redacted_at)
             VALUES ($1, 'm-1', 'ENTITY', $2, now(), now(), ${redactedAt})`,
            [id, status],
          );
        }
        for (const [scope, key, outcome] of records) {
          await pool.query(
            `INSERT INTO "${schema}".idempotency_records
               (owner, scope, idempotency_key, fingerprint, token, state, created_at, locked_at, completed_at, outcome)
             VALUES ('manager:m-1', $1, $2, $3, 't', $4, now(), now(), $5, $6)`,
            [
              scope,
              key,
              digest,
              outcome === null ? 'IN_PROGRESS' : 'COMPLETED',
              outcome === null ? null : new Date(),
              outcome === null ? null : JSON.stringify(outcome),
            ],
          );
        }
      },
      async (pool, schema) => {
        const rows = await pool.query<{ idempotency_key: string; fingerprint: string; outcome: unknown }>(
          `SELECT idempotency_key, fingerprint, outcome FROM "${schema}".idempotency_records`,
        );
        const byKey = new Map(rows.rows.map((row) => [row.idempotency_key, row]));
        const redactedRedirect = { ...redirect, body: '[redacted]' };
        expect(byKey.get('note')).toMatchObject({ fingerprint: '[redacted]', outcome: redactedRedirect });
        expect(byKey.get('create')).toMatchObject({ fingerprint: '[redacted]', outcome: created });
        expect(byKey.get('terms')).toMatchObject({ fingerprint: '[redacted]', outcome: refused });
        expect(byKey.get('running')).toMatchObject({ fingerprint: '[redacted]', outcome: null });
        // A client not redacted keeps its records as they were.
        expect(byKey.get('other')).toMatchObject({ fingerprint: digest, outcome: redirect });
      },
    );
  });

  it('refuses a schema name that is not a plain identifier when wiring, before any SQL is sent', async () => {
    const pool = new pg.Pool({ connectionString: await workerDatabaseUrl(), max: 1 });
    expect(() => migrate(pool, { schema: 'kit"; DROP TABLE x; --' })).toThrow(TypeError);
    expect(() => createPostgresAdapters({ pool, schema: 'Kit-Schema' })).toThrow(TypeError);
    // The job engine's schema (`<schema>_jobs`) must fit pg-boss's 50 characters.
    expect(() => createPostgresAdapters({ pool, schema: 'k'.repeat(46) })).toThrow(/at most 45 characters/);
    expect(() => createPostgresAdapters({ pool, schema: 'k'.repeat(45) })).not.toThrow();
    return pool.end();
  });

  it('answers StorageUnavailable when the database cannot be reached', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody:nothing@127.0.0.1:1/none', max: 1 });
    try {
      expect((await migrate(pool))._unsafeUnwrapErr()).toMatchObject({
        type: 'StorageUnavailable',
        store: 'postgres',
      });
    } finally {
      await pool.end();
    }
  });
});

describe('integrity in the schema', () => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    database = await openMigratedDatabase();
  });
  afterAll(() => database.close());

  const insertClient = (overrides: Record<string, unknown> = {}) => {
    const row = {
      id: randomUUID(),
      manager_id: 'manager-1',
      client_type: 'INDIVIDUAL',
      status: 'ONBOARDING_UNDER_REVIEW',
      ...overrides,
    };
    return database.pool.query(
      `INSERT INTO ${database.tables.clients} (id, manager_id, client_type, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, now(), now())`,
      [row.id, row.manager_id, row.client_type, row.status],
    );
  };

  it('refuses a status or a client type outside the enums (CHECK constraints)', async () => {
    await expect(insertClient({ status: 'APPROVED' })).rejects.toMatchObject({ code: '23514' });
    await expect(insertClient({ client_type: 'COMPANY' })).rejects.toMatchObject({ code: '23514' });
  });

  it('refuses a missing required value (NOT NULL)', async () => {
    await expect(insertClient({ manager_id: null })).rejects.toMatchObject({ code: '23502' });
  });

  it('refuses a child row of an unknown client (foreign key)', async () => {
    await expect(
      database.pool.query(
        `INSERT INTO ${database.tables.wallets} (id, client_id, position, blockchain_network, address, created_at)
         VALUES ($1, $2, 1, 'ETHEREUM', '0x0', now())`,
        [randomUUID(), randomUUID()],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('refuses a second record for one scope and idempotency key (UNIQUE)', async () => {
    const insert = () =>
      database.pool.query(
        `INSERT INTO ${database.tables.idempotency} (owner, scope, idempotency_key, fingerprint, token, state, created_at, locked_at)
         VALUES ('manager:m', 'scope-unique', 'key', 'f', $1, 'IN_PROGRESS', now(), now())`,
        [randomUUID()],
      );
    await insert();
    await expect(insert()).rejects.toMatchObject({ code: '23505' });
  });

  it('refuses to store an API key that is not a SHA-256 hex digest', async () => {
    await expect(
      database.pool.query(
        `INSERT INTO ${database.tables.apiKeys} (key_hash, principal_kind, manager_id) VALUES ('demo-manager-a-key', 'manager', 'm')`,
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
