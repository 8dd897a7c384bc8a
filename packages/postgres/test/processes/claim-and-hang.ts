/**
 * Child process of the takeover test: claims one idempotency key, says so, then never finishes,
 * like a process that crashes in the middle of a request (the test kills it with SIGKILL).
 * Usage: node --import tsx claim-and-hang.ts <url> <schema> <scope> <key>
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createPostgresAdapters } from '../../src/postgres-adapters.js';

const [url, schema, scope, key] = process.argv.slice(2);
if (url === undefined || schema === undefined || scope === undefined || key === undefined) {
  throw new Error('usage: claim-and-hang.ts <url> <schema> <scope> <key>');
}
const pool = new pg.Pool({ connectionString: url, max: 1 });
const { idempotency } = createPostgresAdapters({ pool, schema });
const claim = await idempotency.claim({
  scope,
  owner: scope.split(' ')[0] ?? scope,
  maxLiveRecordsPerOwner: null,
  key,
  token: randomUUID(),
  fingerprint: 'd'.repeat(64),
  now: new Date(),
  lockTtlMs: 60_000,
  recordTtlMs: 86_400_000,
});
process.stdout.write(`${claim.isOk() ? claim.value.type : claim.error.type}\n`);
setInterval(() => undefined, 60_000);
