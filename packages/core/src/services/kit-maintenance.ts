import type { ResultAsync } from 'neverthrow';
import type { DomainError } from '../errors.js';
import type { OnboardingKit } from '../onboarding-kit.js';

/**
 * Where a failed run is reported, in winston's shape (`logger.error(message, details)`): the
 * express binding's `HttpLogger`, a winston logger or the console fit as they are.
 */
export type MaintenanceLogger = {
  error(message: string, details: Readonly<Record<string, unknown>>): void;
};

const consoleMaintenanceLogger: MaintenanceLogger = {
  error: (message, details) => console.error(message, details),
};

export type KitMaintenanceOptions = {
  /** Receives the failures of a run (a run that fails is retried at the next interval). Default: the console. */
  readonly logger?: MaintenanceLogger;
  /** How often expired idempotency records are purged (default 10 minutes; 0: never). */
  readonly purgeIdempotencyEveryMs?: number;
  /** How often orphan documents are swept (default hourly; 0: never). */
  readonly sweepOrphanDocumentsEveryMs?: number;
  /** How often clients past `retentionAfterDeletionDays` are redacted (default hourly; 0: never). */
  readonly redactExpiredClientsEveryMs?: number;
};

/** The kit's background work, started: `close()` stops it and waits for a run in progress. */
export type KitMaintenance = {
  /** Stops every schedule and resolves once no run is in progress. Calling it again does nothing more. */
  close(): Promise<void>;
};

type Task = {
  readonly name: string;
  readonly everyMs: number;
  readonly run: () => ResultAsync<unknown, DomainError>;
};

/**
 * Starts the kit's background work on this process, on timers over the kit's own services (the one
 * place in core that schedules work): the purge of expired idempotency records, the sweep of
 * orphan documents and the redaction of clients past their retention period (each runs now, then
 * at its interval; a run never overlaps the previous one). All are safe on several instances at
 * once, but each instance runs them: with a job engine (PostgreSQL's `startPostgresJobRunner`),
 * whose schedules run each once per tick across instances, start the engine instead of this.
 * Timers never keep the process alive; call `close()` on shutdown to drain a run in progress.
 */
export const startKitMaintenance = (
  kit: Pick<OnboardingKit, 'idempotency' | 'documents' | 'redaction'>,
  options: KitMaintenanceOptions = {},
): KitMaintenance => {
  const logger = options.logger ?? consoleMaintenanceLogger;
  const tasks: Task[] = [
    {
      name: 'purge expired idempotency records',
      everyMs: options.purgeIdempotencyEveryMs ?? 10 * 60_000,
      run: () => kit.idempotency.purgeExpired(),
    },
    {
      name: 'sweep orphan documents',
      everyMs: options.sweepOrphanDocumentsEveryMs ?? 60 * 60_000,
      run: () => kit.documents.sweepOrphanDocuments(),
    },
    {
      name: 'redact clients past their retention period',
      everyMs: options.redactExpiredClientsEveryMs ?? 60 * 60_000,
      run: () => kit.redaction.redactExpired(),
    },
  ];
  const running = new Set<Promise<void>>();
  const timers: ReturnType<typeof setInterval>[] = [];
  let closed = false;
  let closing: Promise<void> | undefined;

  for (const task of tasks.filter(({ everyMs }) => everyMs > 0)) {
    let inProgress = false;
    const runOnce = () => {
      if (closed || inProgress) return;
      inProgress = true;
      const run = Promise.resolve()
        .then(() => task.run())
        .then((outcome) => {
          if (outcome.isErr()) {
            logger.error(`onboarding-kit: could not ${task.name}`, { failure: outcome.error });
          }
        })
        .catch((cause: unknown) => logger.error(`onboarding-kit: could not ${task.name}`, { cause }))
        .finally(() => {
          inProgress = false;
          running.delete(run);
        });
      running.add(run);
    };
    const timer = setInterval(runOnce, task.everyMs);
    timer.unref?.();
    timers.push(timer);
    runOnce();
  }

  return {
    close: () => {
      closing ??= (async () => {
        closed = true;
        for (const timer of timers) clearInterval(timer);
        await Promise.all([...running]);
      })();
      return closing;
    },
  };
};
