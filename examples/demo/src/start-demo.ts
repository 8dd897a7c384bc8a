import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOnboardingKit,
  type OnboardingKit,
  type OnboardingKitOptions,
  seedDemoData,
} from '@onboarding-kit/core';
import { consoleHttpLogger, type HttpLogger } from '@onboarding-kit/express';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { type DemoAdapters, openDemoAdapters } from './demo-adapters.js';
import { createDemoApp, demoPaths } from './demo-app.js';
import type { DemoConfig } from './demo-config.js';
import { openManagerRateLimit } from './demo-rate-limit.js';
import { createLimitedServer, type DemoServerLimits } from './demo-server-limits.js';
import { type DemoStartFailure, demoStartFailure, describeDemoStartFailure } from './demo-start-failure.js';
import { type DemoWebhookEndpoint, registerDemoWebhook, startDemoJobs } from './demo-webhooks.js';
import { seedTryItOut } from './try-it-out-seed.js';

export type StartDemoOptions = {
  /** Receives the causes of 500 and 503 answers and failed purges (default: console.error). */
  readonly logger?: HttpLogger;
  /** Told about what the demo goes on without (default: console.warn). */
  readonly warn?: (message: string) => void;
  /** The kit's options (default: the kit's defaults). */
  readonly kitOptions?: OnboardingKitOptions;
  /** The HTTP server's timeouts and connection cap (default: `defaultDemoServerLimits`). */
  readonly serverLimits?: Partial<DemoServerLimits>;
};

export type RunningDemo = {
  /** Where callers reach the demo (PUBLIC_BASE_URL, or http://localhost:<port>). */
  readonly origin: string;
  /** The port actually bound (PORT=0 picks a free one). */
  readonly port: number;
  readonly kit: OnboardingKit;
  readonly adapters: DemoAdapters;
  readonly server: Server;
  /** The endpoint registered for WEBHOOK_URL, if set. */
  readonly webhook: DemoWebhookEndpoint | null;
  /** Stops accepting requests, lets the ones in flight finish (5 s at most), ends the pool. */
  close(): Promise<void>;
};

const CLOSE_GRACE_MS = 5_000;

const listen = (server: Server, port: number, host: string): ResultAsync<number, DemoStartFailure> =>
  ResultAsync.fromPromise(
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    }),
    demoStartFailure(`listen on ${host}:${port}`),
  );

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    // Idle keep-alive connections are closed at once; busy ones get a grace period.
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });

/** Listens first, so that PORT=0 is resolved before the signed links' base URL is fixed. */
export const startDemo = (
  config: DemoConfig,
  options: StartDemoOptions = {},
): ResultAsync<RunningDemo, DemoStartFailure> => {
  const logger = options.logger ?? consoleHttpLogger;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const server = createLimitedServer(options.serverLimits);
  return listen(server, config.port, config.host).andThen((port) => {
    const origin = config.publicBaseUrl ?? `http://localhost:${port}`;
    return openDemoAdapters(config, { storageBaseUrl: `${origin}${demoPaths.storage}`, warn })
      .andThen((adapters) => {
        const kit = createOnboardingKit({
          ...adapters.ports,
          // WEBHOOK_URL may be on localhost; any other endpoint only with WEBHOOK_ALLOW_PRIVATE_NETWORKS.
          options: {
            webhookAllowPrivateNetworks:
              config.webhookAllowPrivateNetworks || (config.webhook === null ? false : [config.webhook.url]),
            ...options.kitOptions,
          },
        });
        return seedDemoData(adapters.ports)
          .mapErr(demoStartFailure('seed the demo keys, client and preset fees'))
          .andThen(() =>
            seedTryItOut(kit, adapters).mapErr(
              demoStartFailure("seed what the API docs' examples need (client a2, uploads, a document)"),
            ),
          )
          .andThen(() =>
            config.webhook === null
              ? okAsync(null)
              : registerDemoWebhook(kit, adapters.ports, config.webhook),
          )
          .andThen((webhook) =>
            openManagerRateLimit(config.managerRateLimit, adapters.pool).map((managerRateLimit) => ({
              webhook,
              managerRateLimit,
            })),
          )
          .andThen(({ webhook, managerRateLimit }) =>
            startDemoJobs(kit, adapters, {
              jobExpirySeconds: config.webhookJobExpirySeconds,
              logger,
            }).map((jobs) => ({ adapters, kit, webhook, jobs, managerRateLimit })),
          )
          .orElse((failure) =>
            ResultAsync.fromSafePromise(adapters.close()).andThen(() => errAsync(failure)),
          );
      })
      .map(({ adapters, kit, webhook, jobs, managerRateLimit }): RunningDemo => {
        server.on(
          'request',
          createDemoApp({
            kit,
            signedLinks: adapters.signedLinks,
            logger,
            ...(managerRateLimit === undefined ? {} : { managerRateLimit }),
          }),
        );
        return {
          origin,
          port,
          kit,
          adapters,
          server,
          webhook,
          close: async () => {
            await jobs.close();
            await closeServer(server);
            await adapters.close();
          },
        };
      })
      .orElse((failure) => ResultAsync.fromSafePromise(closeServer(server)).andThen(() => errAsync(failure)));
  });
};

/** For callers that only need the demo running (tests, benches): the failure becomes a thrown Error. */
export const startDemoOrThrow = async (config: DemoConfig, options: StartDemoOptions = {}) => {
  const started = await startDemo(config, options);
  if (started.isErr()) {
    throw new Error(describeDemoStartFailure(started.error), { cause: started.error.cause });
  }
  return started.value;
};
