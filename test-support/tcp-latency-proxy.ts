import { connect, createServer, type Server, type Socket } from 'node:net';

export type TcpLatencyProxy = {
  /** Where to connect instead of the target, e.g. `127.0.0.1:54321`. */
  readonly host: string;
  readonly port: number;
  /**
   * Round trips seen so far, over every connection: a burst of bytes the client sends after the
   * server last spoke (or first on its connection) is one. Pipelined statements sent before the
   * server answers count once, as they cost one wait on a real link.
   */
  readonly roundTrips: () => number;
  /** `connectionString` with its host and port replaced by the proxy's. */
  readonly through: (connectionString: string) => string;
  readonly close: () => Promise<void>;
};

/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in the tests and benches) that counts
 * round trips on the wire and, with `addedRoundTripMs` > 0, holds every chunk the client sends that
 * long before passing it on, as a link between two availability zones would (the answers pass at
 * once, so the round trip grows by the delay once). Node's timers tick in whole milliseconds, so
 * the delay is at least the one asked and usually a fraction more: the bench measures and prints it.
 */
export const startTcpLatencyProxy = async (
  target: { readonly host: string; readonly port: number },
  addedRoundTripMs = 0,
): Promise<TcpLatencyProxy> => {
  let roundTrips = 0;
  const sockets = new Set<Socket>();

  const relay = (client: Socket) => {
    const server = connect(target.port, target.host);
    sockets.add(client).add(server);
    client.setNoDelay(true);
    server.setNoDelay(true);
    // Chunks from the client, in order, each with the time it may pass.
    const held: Array<{ readonly due: number; readonly chunk: Buffer }> = [];
    let timer: NodeJS.Timeout | null = null;
    let serverSpokeLast = true;

    const release = () => {
      timer = null;
      const now = performance.now();
      while (held.length > 0 && (held[0]?.due ?? Number.POSITIVE_INFINITY) <= now) {
        server.write(held.shift()?.chunk ?? Buffer.alloc(0));
      }
      schedule();
    };
    const schedule = () => {
      const next = held[0];
      if (timer !== null || next === undefined) return;
      timer = setTimeout(release, Math.max(0, next.due - performance.now()));
    };

    client.on('data', (chunk: Buffer) => {
      if (serverSpokeLast) roundTrips += 1;
      serverSpokeLast = false;
      if (addedRoundTripMs <= 0) {
        server.write(chunk);
        return;
      }
      held.push({ due: performance.now() + addedRoundTripMs, chunk });
      schedule();
    });
    server.on('data', (chunk: Buffer) => {
      serverSpokeLast = true;
      client.write(chunk);
    });
    const closeBoth = () => {
      if (timer !== null) clearTimeout(timer);
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', closeBoth).on('error', closeBoth);
    server.on('close', closeBoth).on('error', closeBoth);
  };

  const listener: Server = createServer(relay);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    host: '127.0.0.1',
    port,
    roundTrips: () => roundTrips,
    through: (connectionString) => {
      const proxied = new URL(connectionString);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        listener.close(() => resolve());
      }),
  };
};
