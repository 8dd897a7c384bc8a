import { type PassThroughProxy, startPassThroughProxy } from '../../../test-support/pass-through-proxy.js';

export type CopyFault = 'error-inside-200' | 'empty-200';

export type CopyFaultProxy = PassThroughProxy;

/**
 * A pass-through HTTP proxy in front of a real S3 server that injects one fault S3 documents for
 * CopyObject: the copy answers 200 and the failure is in the body (or the body is empty, when the
 * connection drops mid-copy). Only copies whose source contains `poisoned` are faulted; every other
 * request reaches the real server unchanged (headers included, so signatures still match).
 */
export const startCopyFaultProxy = (target: string, fault: CopyFault): Promise<CopyFaultProxy> =>
  startPassThroughProxy(target, (incoming, outgoing, forward) => {
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
    forward(incoming, outgoing);
  });
