import { createServer, request, type Server } from 'node:http';

export type CopyFault = 'error-inside-200' | 'empty-200';

export type CopyFaultProxy = { readonly endpoint: string; readonly close: () => Promise<void> };

/**
 * A pass-through HTTP proxy in front of a real S3 server that injects one fault S3 documents for
 * CopyObject: the copy answers 200 and the failure is in the body (or the body is empty, when the
 * connection drops mid-copy). Only copies whose source contains `poisoned` are faulted; every other
 * request reaches the real server unchanged (headers included, so signatures still match).
 */
export const startCopyFaultProxy = async (target: string, fault: CopyFault): Promise<CopyFaultProxy> => {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const copySource = incoming.headers['x-amz-copy-source'];
    if (incoming.method === 'PUT' && typeof copySource === 'string' && copySource.includes('poisoned')) {
      incoming.resume();
      incoming.once('end', () => {
        const body =
          fault === 'empty-200'
            ? ''
            : '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
              '<Message>We encountered an internal error. Please try again.</Message>' +
              '<RequestId>INJECTED</RequestId></Error>';
        outgoing.writeHead(200, {
          'content-type': 'application/xml',
          'content-length': Buffer.byteLength(body),
        });
        outgoing.end(body);
      });
      return;
    }
    const forwarded = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.once('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
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
