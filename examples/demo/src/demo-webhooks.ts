import {
  demoIdentities,
  type MaintenanceLogger,
  type OnboardingKit,
  type OnboardingKitPorts,
  randomUuids,
  startKitMaintenance,
  systemClock,
} from '@onboarding-kit/core';
import type { StoredWebhookEndpoint } from '@onboarding-kit/core/adapter';
import { startPostgresJobRunner } from '@onboarding-kit/postgres';
import { okAsync, ResultAsync } from 'neverthrow';
import type { DemoAdapters } from './demo-adapters.js';
import type { WebhookSettings } from './demo-config.js';
import { startDemoMemoryJobLoop } from './demo-memory-job-loop.js';
import { type DemoStartFailure, demoStartFailure } from './demo-start-failure.js';

/** What the demo registered for WEBHOOK_URL: the endpoint, and its secret when the kit made it. */
export type DemoWebhookEndpoint = {
  readonly endpointId: string;
  readonly url: string;
  readonly newSecret: string | null;
};

/**
 * Registers WEBHOOK_URL for manager A, once (a restart on PostgreSQL finds it). With WEBHOOK_SECRET
 * the endpoint is written with that secret through the port (as the demo seeds its API keys);
 * without it the kit makes one, which the demo prints once.
 */
export const registerDemoWebhook = (
  kit: OnboardingKit,
  ports: OnboardingKitPorts,
  settings: WebhookSettings,
): ResultAsync<DemoWebhookEndpoint, DemoStartFailure> => {
  const manager = demoIdentities.managerA.principal;
  const failed = demoStartFailure(`register WEBHOOK_URL ${settings.url} for manager A`);
  // As the kit stores it (WHATWG-normalized), to find the endpoint again after a restart.
  const url = URL.canParse(settings.url) ? new URL(settings.url).href : settings.url;
  return kit.webhooks
    .listEndpoints(manager)
    .mapErr(failed)
    .andThen(({ data }) => {
      const existing = data.find((endpoint) => endpoint.url === url);
      if (existing !== undefined)
        return okAsync({ endpointId: existing.id, url: existing.url, newSecret: null });
      if (settings.secret === null) {
        return kit.webhooks
          .createEndpoint(manager, { url: settings.url, description: 'WEBHOOK_URL of the demo' })
          .mapErr(failed)
          .map((created) => ({ endpointId: created.id, url: created.url, newSecret: created.secret }));
      }
      const endpoint: StoredWebhookEndpoint = {
        id: (ports.ids ?? randomUuids).uuid(),
        managerId: manager.managerId,
        url,
        description: 'WEBHOOK_URL of the demo',
        eventTypes: null,
        createdAt: (ports.clock ?? systemClock).now().toISOString(),
        secrets: [{ secret: settings.secret, expiresAt: null }],
        failingSince: null,
        disabledAt: null,
        disabledReason: null,
      };
      // The demo's own endpoint, registered at start: no manager's limit applies to it.
      return ports.webhookEndpoints
        .insertWithinLimit(endpoint, Number.MAX_SAFE_INTEGER)
        .mapErr(failed)
        .map(() => ({ endpointId: endpoint.id, url: endpoint.url, newSecret: null }));
    });
};

/** Webhook jobs one round of the demo's memory runner runs at once. */
const DEMO_JOBS_AT_ONCE = 32;

/** The background work of the demo's persistence: delivery, screening and the periodic work. */
export type DemoJobs = { close(): Promise<void> };

/**
 * On PostgreSQL, the pg-boss runner alone: webhook and screening jobs, and the idempotency purge,
 * orphan sweep and retention redaction on its schedules, one run per tick across demo processes
 * (timers as well would run each of them once more per process). In memory, the memory queues
 * (screening, then webhooks) every 200 ms and the periodic work on `startKitMaintenance`'s timers.
 */
export const startDemoJobs = (
  kit: OnboardingKit,
  adapters: DemoAdapters,
  { jobExpirySeconds, logger }: { readonly jobExpirySeconds: number; readonly logger: MaintenanceLogger },
): ResultAsync<DemoJobs, DemoStartFailure> => {
  if (adapters.pool === null) {
    // Jobs run side by side: one waiting on a slow receiver holds no other manager's back.
    // Each round first screens the clients due (their jobs are taken once), then delivers.
    const delivery = startDemoMemoryJobLoop(async (signal) => {
      await adapters.memory.testing.screenDueClients(kit);
      return adapters.memory.testing.deliverDueWebhooks(kit, { concurrency: DEMO_JOBS_AT_ONCE, signal });
    });
    const maintenance = startKitMaintenance(kit, { logger });
    return okAsync({
      close: async () => {
        await maintenance.close();
        await delivery.close();
      },
    });
  }
  return ResultAsync.fromPromise(
    startPostgresJobRunner({
      pool: adapters.pool,
      kit,
      onError: (error) => logger.error('The job runner failed', { error }),
      maintenanceIntervalSeconds: Math.max(1, Math.floor(jobExpirySeconds / 2)),
    }),
    demoStartFailure('start the PostgreSQL job runner (pg-boss)'),
  );
};
