import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';

/**
 * Sends a request on to the server behind the proxy, headers included (so signatures still match),
 * and relays its answer. `body`: the bytes to send instead of streaming the request's own (a
 * handler that read them already). `onAnswer`: sees the server's answer first; returning true
 * means it dealt with it, and nothing is relayed.
 */
export type Forward = (
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  options?: { readonly body?: Buffer; readonly onAnswer?: (answer: IncomingMessage) => boolean },
) => void;

export type PassThroughProxy = { readonly endpoint: string; readonly close: () => Promise<void> };

/**
 * An HTTP proxy on 127.0.0.1 in front of a real server, for tests that need a fault or a rule the
 * server lacks: `handle` receives every request with `forward`, and either answers it itself or
 * forwards it (possibly changed). The fault, condition and copy-holding proxies of the S3 and demo
 * tests are each a `handle`.
 */
/**
 * The proxy could not do its part (the upstream failed, a body did not parse): a 502 naming why, so
 * a test that fails says what broke instead of "other side closed"; a connection already answering
 * is cut.
 */
export const failed = (outgoing: ServerResponse, error: unknown): void => {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const body = `pass-through proxy: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  outgoing.writeHead(502, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
  outgoing.end(body);
};

export const startPassThroughProxy = async (
  target: string,
  handle: (incoming: IncomingMessage, outgoing: ServerResponse, forward: Forward) => void,
): Promise<PassThroughProxy> => {
  const upstream = new URL(target);
  const forward: Forward = (incoming, outgoing, { body, onAnswer } = {}) => {
    const forwarded = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        if (onAnswer?.(answer)) return;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.once('error', (error) => failed(outgoing, error));
    if (body === undefined) incoming.pipe(forwarded);
    else forwarded.end(body);
  };
  const server: Server = createServer((incoming, outgoing) => handle(incoming, outgoing, forward));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
