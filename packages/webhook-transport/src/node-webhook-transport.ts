import {
  lookup as dnsLookup,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOneOptions,
} from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  isPublicUnicastAddress,
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookTransport,
} from '@onboarding-kit/core/adapter';
import ipaddr from 'ipaddr.js';
import { ResultAsync } from 'neverthrow';

export type NodeWebhookTransportOptions = {
  /** Answer bytes read (and dropped) before the connection is closed (default 64 KiB). */
  readonly maxResponseBytes?: number;
  /** Name resolution (default `dns.lookup`); every address it gives is checked before connecting. */
  readonly lookup?: typeof dnsLookup;
};

/** Marks the lookup's refusal of every address a name resolved to (none public). */
const NON_PUBLIC_ADDRESS = 'ENONPUBLIC';

/**
 * Resolves like `dns.lookup`, keeping only public unicast addresses when private networks are not
 * allowed: the connection goes to an address that was checked, so a name that resolves to an
 * internal address (DNS rebinding included) is refused at each delivery, not only at registration.
 */
const guardedLookup =
  (resolve: typeof dnsLookup, allowPrivateNetworks: boolean): LookupFunction =>
  (hostname, options, callback) => {
    resolve(
      hostname,
      { ...(options as LookupOneOptions), all: true } as LookupAllOptions,
      (error, addresses) => {
        if (error) {
          callback(error, '', 4);
          return;
        }
        const usable = (addresses as LookupAddress[]).filter(
          ({ address }) => allowPrivateNetworks || isPublicUnicastAddress(address),
        );
        const [first] = usable;
        if (first === undefined) {
          callback(
            Object.assign(new Error(`${hostname} resolves to no public address`), {
              code: NON_PUBLIC_ADDRESS,
            }),
            '',
            4,
          );
          return;
        }
        if ((options as LookupAllOptions).all)
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, first.address, first.family);
      },
    );
  };

/** A failed exchange as the manager may see it: never the socket error's text nor an address. */
const reasonOf = (error: unknown): 'connection failed' | 'address not allowed' =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === NON_PUBLIC_ADDRESS
    ? 'address not allowed'
    : 'connection failed';

const retryAfterOf = (response: IncomingMessage): string | null => {
  const value = response.headers['retry-after'];
  return typeof value === 'string' ? value : null;
};

/**
 * Sends one delivery: a POST that never follows redirects (a 3xx is an answer like any non-2xx),
 * bounded by the request's timeout from connection to answer, reading at most `maxResponseBytes`
 * of the answer. Never rejects: every failure is an `unreachable` answer with its reason. The
 * answer is known at its status line; the connection is closed by the same deadline if its body
 * has not ended by then, so a receiver that trickles a body cannot hold sockets open.
 */
const sendOnce = (request: WebhookRequest, options: NodeWebhookTransportOptions): Promise<WebhookAnswer> =>
  new Promise((resolve) => {
    let settled = false;
    const settle = (answer: WebhookAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    /** The exchange is over: the answer's body was read or dropped, or the request failed. */
    const over = () => clearTimeout(deadline);
    const deadline = setTimeout(() => {
      settle({ type: 'unreachable', reason: 'timeout' });
      outgoing?.destroy();
    }, request.timeoutMs);

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      settle({ type: 'unreachable', reason: 'connection failed' });
      over();
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      settle({ type: 'unreachable', reason: 'connection failed' });
      over();
      return;
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    // An address literal is connected to without a lookup: it is checked here instead.
    if (ipaddr.isValid(host) && !request.allowPrivateNetworks && !isPublicUnicastAddress(host)) {
      settle({ type: 'unreachable', reason: 'address not allowed' });
      over();
      return;
    }
    const body = Buffer.from(request.body, 'utf8');
    const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(body.length) },
      lookup: guardedLookup(options.lookup ?? dnsLookup, request.allowPrivateNetworks),
    });
    outgoing.on('error', (error) => {
      settle({ type: 'unreachable', reason: reasonOf(error) });
      over();
    });
    outgoing.on('response', (response) => {
      settle({ type: 'answered', statusCode: response.statusCode ?? 0, retryAfter: retryAfterOf(response) });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > maxResponseBytes) response.destroy();
      });
      response.on('error', () => undefined);
      // Ended or destroyed (read whole, too long, or cut by the deadline).
      response.on('close', over);
    });
    outgoing.end(body);
  });

/** Webhook delivery over Node's HTTP client, with the kit's SSRF guard on every connection. */
export const createNodeWebhookTransport = (options: NodeWebhookTransportOptions = {}): WebhookTransport => ({
  send: (request) => ResultAsync.fromSafePromise(sendOnce(request, options)),
});
