/**
 * Child process of the concurrency tests: opens its own pool, waits for "go" on stdin, then sends
 * `count` claims of one idempotency key at once and prints how they were answered, as JSON.
 * Usage: node --import tsx claim-same-key.ts <url> <schema> <scope> <key> <count>
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import { createPostgresAdapters } from '../../src/postgres-adapters.js';

const [url, schema, scope, key, count] = process.argv.slice(2);
if (
  url === undefined ||
  schema === undefined ||
  scope === undefined ||
  key === undefined ||
  count === undefined
) {
  throw new Error('usage: claim-same-key.ts <url> <schema> <scope> <key> <count>');
}
const pool = new pg.Pool({ connectionString: url, max: 10 });
const { idempotency } = createPostgresAdapters({ pool, schema });
// Open every connection before the start signal, so both processes really race.
await Promise.all(Array.from({ length: 10 }, () => pool.query('SELECT 1')));
process.stdout.write('ready\n');
await once(process.stdin, 'data');

const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, () =>
    idempotency.claim({
      scope,
      owner: scope.split(' ')[0] ?? scope,
      maxLiveRecordsPerOwner: null,
      key,
      token: randomUUID(),
      fingerprint: 'c'.repeat(64),
      now: new Date(),
      lockTtlMs: 60_000,
      recordTtlMs: 86_400_000,
    }),
  ),
);
const tally: Record<string, number> = {};
for (const outcome of outcomes) {
  const name = outcome.isOk() ? outcome.value.type : outcome.error.type;
  tally[name] = (tally[name] ?? 0) + 1;
}
process.stdout.write(`${JSON.stringify(tally)}\n`);
await pool.end();
process.exit(0);
