import { createServer } from 'node:http';
import { createOnboardingKit, seedDemoData, startKitMaintenance } from '@onboarding-kit/core';
import { onboardingKitPaths } from '@onboarding-kit/express';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { createJsonLinesLogger } from './json-lines-logger.js';
import { createPortalApp, ONBOARDING_PREFIX } from './portal-app.js';

/**
 * `pnpm --filter host-app start`: the portal on PORT (default 4000), onboarding-kit in memory mode,
 * seeded with the demo's managers, client and preset fees. Sessions: `Authorization: Bearer
 * demo-session-manager-a`, `demo-session-manager-b`, `demo-session-compliance`.
 */
const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';
const origin = (process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const logger = createJsonLinesLogger();

const adapters = createMemoryAdapters({
  publicBaseUrl: `${origin}${onboardingKitPaths(ONBOARDING_PREFIX).storage}`,
});
const kit = createOnboardingKit(adapters);
const seeded = await seedDemoData(adapters);
if (seeded.isErr()) {
  logger.error('could not seed the portal', { failure: seeded.error });
  process.exit(1);
}
const { app } = createPortalApp({ kit, signedLinks: adapters.signedLinks, logger });
const maintenance = startKitMaintenance(kit, {
  logger: { error: (message, details) => logger.error(message, details) },
});
const server = createServer(app);
server.listen(port, host, () => {
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  logger.info('portal listening', {
    url: `http://localhost:${listening}`,
    onboarding: `${origin}${ONBOARDING_PREFIX}`,
  });
});

// `on`, not `once`: tsx relays the signal to this process, so a signal sent to the whole process
// group arrives twice; a second one after a `once` handler was spent would kill the process
// mid-shutdown (exit 143), as the portal-process test saw on a loaded machine.
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  void maintenance.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
