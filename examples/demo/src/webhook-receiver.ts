/**
 * `pnpm --filter @onboarding-kit/demo webhook-receiver`: a receiver for the demo's webhooks (README,
 * walkthrough step 9). It listens on the port of WEBHOOK_URL (default http://localhost:4000/hooks),
 * checks every delivery with the kit's own `verifyWebhook` and WEBHOOK_SECRET, and prints one line
 * per event: `verified client.created <webhook-id> client <client id>`, or why it refused it.
 */
import { createServer } from 'node:http';
import { verifyWebhook } from '@onboarding-kit/core';

/**
 * The demo's webhook secret, public like the demo's API keys (it decodes to "onboarding-kit demo:
 * public, never use it"): the README passes it to the demo as WEBHOOK_SECRET, so the receiver knows
 * it before the demo starts. Never sign a real endpoint's deliveries with it.
 */
export const DEMO_WEBHOOK_SECRET = 'whsec_b25ib2FyZGluZy1raXQgZGVtbzogcHVibGljLCBuZXZlciB1c2UgaXQ=';

const MAX_BODY_BYTES = 1024 * 1024;

const url = new URL(process.env.WEBHOOK_URL?.trim() || 'http://localhost:4000/hooks');
const secret = process.env.WEBHOOK_SECRET?.trim() || DEMO_WEBHOOK_SECRET;

const server = createServer((req, res) => {
  if (req.method !== 'POST' || new URL(req.url ?? '/', url).pathname !== url.pathname) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    // The raw bytes as received: the signature covers them, not a re-serialized JSON.
    const verified = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    if (verified.isErr()) {
      console.log(`refused: ${verified.error.reason}`);
      res.writeHead(400).end();
      return;
    }
    const { id, event } = verified.value;
    const clientId = 'client' in event.data ? event.data.client.id : event.data.clientId;
    console.log(`verified ${event.type} ${id} client ${clientId}`);
    res.writeHead(204).end();
  });
});

// On WEBHOOK_URL's own host name: `localhost` resolves here as the demo's delivery resolves it.
server.listen(Number(url.port || 80), url.hostname, () => {
  console.log(
    `Webhook receiver on ${url.href}, verifying with ${
      secret === DEMO_WEBHOOK_SECRET ? `the demo's public secret ${DEMO_WEBHOOK_SECRET}` : 'WEBHOOK_SECRET'
    }`,
  );
});
// `on`, not `once`: under tsx a signal to the process group arrives twice (tsx relays it), and a
// second one after a spent `once` handler would kill the receiver mid-close.
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
