/**
 * The one-command demo (`pnpm demo`): decisions §8. In memory by default; PostgreSQL with
 * DATABASE_URL, S3 with S3_BUCKET (and S3_ENDPOINT, S3_REGION, AWS credentials).
 */
import { demoBanner } from './demo-banner.js';
import { readDemoConfig } from './demo-config.js';
import { describeDemoStartFailure } from './demo-start-failure.js';
import { type RunningDemo, startDemo } from './start-demo.js';

const stopOnSignals = (demo: RunningDemo): void => {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C does not wait for requests in flight.
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: stopping the demo…`);
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('demo: could not stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

const config = readDemoConfig(process.env);
if (config.isErr()) {
  console.error(`demo: ${config.error}`);
  process.exit(1);
}

const started = await startDemo(config.value);
if (started.isErr()) {
  console.error(`demo: ${describeDemoStartFailure(started.error)}`);
  process.exit(1);
}
const demo = started.value;
console.log(
  demoBanner({
    origin: demo.origin,
    persistence: demo.adapters.persistence,
    documentStorage: demo.adapters.documentStorage,
    bucket: config.value.s3?.bucket ?? null,
  }),
);
if (demo.webhook !== null) {
  console.log(
    `Webhooks: manager A's events are POSTed to ${demo.webhook.url}` +
      (demo.webhook.newSecret === null
        ? ' (signed with WEBHOOK_SECRET).'
        : `, signed with ${demo.webhook.newSecret} (shown once: set it as WEBHOOK_SECRET to keep it).`),
  );
}
stopOnSignals(demo);
