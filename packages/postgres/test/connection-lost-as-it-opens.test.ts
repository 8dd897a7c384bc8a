import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';

/** One message of the PostgreSQL protocol: its type byte, its length, its body. */
const message = (type: string, body: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
};
const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
const readyForQuery = message('Z', Buffer.from('I'));
const terminating = message(
  'E',
  Buffer.from('SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0'),
);

const sockets = new Set<Socket>();
const server = createServer((socket) => {
  sockets.add(socket);
  socket.on('error', () => undefined);
  // After the startup message: the connection is ready and cut in the same packet, as a server
  // shutting down can answer a connection that opens at that moment.
  socket.once('data', () => socket.end(Buffer.concat([authenticationOk, readyForQuery, terminating])));
});
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  server.close();
});

it('a pooled connection cut in the packet that opens it is a failed statement, not an unhandled error', async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'kit', database: 'kit', max: 1 });
  const adapters = createPostgresAdapters({ pool, schema: 'cut_as_it_opens' });
  // Before the fix the node-postgres client emitted 'error' with no listener between the pool
  // handing it out and the kit listening on it: an uncaught exception that ends a host's process.
  // A transaction checks its connection out of the pool (a single statement uses pool.query).
  const stored = await adapters.unitOfWork.transaction((stores) =>
    stores.clients.findById('00000000-0000-4000-8000-000000000000'),
  );
  expect(stored.isErr() && stored.error).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
  await pool.end();
});
