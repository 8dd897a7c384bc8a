/**
 * One instance of a test server per test run, however many projects' global setups ask for it: the
 * s3, demo and review-console-browser projects each started their own PostgreSQL (initdb included),
 * s3rver and moto_server, one setup after the other, before the first test could start. (The
 * postgres project's workers each start a server of their own: postgres-test-database.ts says why.)
 *
 * Vitest runs every project's global setup in its main process, each from a module graph of its own,
 * so the servers are kept on `globalThis`, not in a module variable. Each setup takes a lease and
 * releases it in its teardown; the server stops with the last lease (vitest tears the setups down
 * at the end of the run). A server that fails to start fails every setup that asked for it, and is
 * not kept: the next one to ask starts it again. Whatever is left running dies with the process
 * (process-groups.ts).
 */
type Stoppable = { stop(): Promise<void> };
type Entry = { leases: number; readonly started: Promise<Stoppable> };

const registryKey = Symbol.for('onboarding-kit/test-support/shared-servers');
const registry = (): Map<string, Entry> => {
  const holder = globalThis as { [registryKey]?: Map<string, Entry> };
  holder[registryKey] ??= new Map();
  return holder[registryKey];
};

/** `start()`'s server, started once per process under `name`; the answer's `stop` releases the lease. */
export const leaseServer = async <T extends Stoppable>(name: string, start: () => Promise<T>): Promise<T> => {
  const servers = registry();
  let entry = servers.get(name);
  if (entry === undefined) {
    const created: Entry = { leases: 0, started: start() };
    created.started.catch(() => {
      if (servers.get(name) === created) servers.delete(name);
    });
    servers.set(name, created);
    entry = created;
  }
  const leased = entry;
  leased.leases += 1;
  const server = (await leased.started) as T;
  let released = false;
  return {
    ...server,
    stop: async () => {
      if (released) return;
      released = true;
      leased.leases -= 1;
      if (leased.leases > 0) return;
      if (servers.get(name) === leased) servers.delete(name);
      await server.stop();
    },
  };
};
