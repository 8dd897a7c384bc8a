import { connect, createServer, type Server, type Socket } from 'node:net';

export type RoundTripCounter = {
  /** A connection string to the same database through the counter. */
  readonly connectionString: string;
  /** Round trips so far: bursts of client → server bytes, each after a server reply (or the first). */
  roundTrips(): number;
  close(): Promise<void>;
};

/**
 * A TCP proxy between a pool and PostgreSQL that counts round trips on the wire: on each
 * connection, bytes from the client that follow bytes from the server (or open the connection)
 * start a new round trip; more client bytes before the server answers are the same trip.
 */
export const startRoundTripCounter = async (postgresUrl: string): Promise<RoundTripCounter> => {
  const target = new URL(postgresUrl);
  let roundTrips = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let clientTurn = false;
    client.on('data', (chunk) => {
      if (!clientTurn) roundTrips += 1;
      clientTurn = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      clientTurn = false;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the counter has no port');
  const proxied = new URL(postgresUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(address.port);
  return {
    connectionString: proxied.toString(),
    roundTrips: () => roundTrips,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
