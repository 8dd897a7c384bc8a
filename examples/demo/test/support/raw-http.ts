import { Agent, request } from 'node:http';

/** One answer read off the socket, body as text (and parsed when it is JSON). */
export type RawAnswer = {
  readonly status: number;
  readonly contentType: string | null;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly body: unknown;
};

export type RawRequest = {
  readonly method: string;
  /** Sent as is: the caller percent-encodes what must be. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string;
};

/**
 * A caller with full control over the request line, headers and body bytes (fetch would refuse or
 * rewrite the hostile ones). Resolves with the answer, or with the socket error when the server cut
 * the connection.
 */
export const rawCaller = (origin: string) => {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const send = ({ method, path, headers = {}, body }: RawRequest): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const bytes = body === undefined ? undefined : Buffer.from(body);
      // Node frames a DELETE body by neither length nor chunks unless told: the server would read
      // the body as the next request on the kept-alive socket.
      const framed = Object.keys(headers).some((name) =>
        ['content-length', 'transfer-encoding'].includes(name.toLowerCase()),
      );
      const sentHeaders =
        bytes === undefined || framed ? headers : { ...headers, 'Content-Length': String(bytes.length) };
      const outgoing = request(
        { host: hostname, port, method, path, headers: sentHeaders, agent },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const contentType = incoming.headers['content-type'] ?? null;
            let parsed: unknown = null;
            if (contentType?.startsWith('application/json')) {
              try {
                parsed = JSON.parse(text);
              } catch {
                parsed = Symbol.for('unparsable JSON');
              }
            }
            resolve({
              status: incoming.statusCode ?? 0,
              contentType,
              headers: incoming.headers,
              text,
              body: parsed,
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(bytes);
    });
  return { send, close: () => agent.destroy() };
};

/** Percent-encodes every byte of the UTF-8 form of `text` that is not unreserved (RFC 3986). */
export const percentEncodeUtf8 = (text: string): string => percentEncodeBytes(Buffer.from(text, 'utf8'));

export const percentEncodeBytes = (bytes: Uint8Array): string =>
  [...bytes]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
