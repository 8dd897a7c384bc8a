import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type LatencyProxyChild = {
  readonly host: string;
  readonly port: number;
  /** Round trips relayed so far (test-support/tcp-latency-proxy.ts says what one is). */
  readonly roundTrips: () => Promise<number>;
  readonly close: () => Promise<void>;
};

/** Starts bench/tcp-latency-proxy-process.ts in front of `target` and resolves once it listens. */
export const startLatencyProxyChild = (
  target: { readonly host: string; readonly port: number },
  addedRoundTripMs: number,
): Promise<LatencyProxyChild> =>
  new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('./tcp-latency-proxy-process.ts', import.meta.url)),
      [target.host, String(target.port), String(addedRoundTripMs)],
      { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the latency proxy exited with ${code} before listening`)));
    child.once('message', (ready: { port: number }) =>
      resolve({
        host: '127.0.0.1',
        port: ready.port,
        roundTrips: () =>
          new Promise((answer) => {
            child.once('message', (reply: { roundTrips: number }) => answer(reply.roundTrips));
            child.send('roundTrips');
          }),
        close: async () => {
          if (child.connected) child.send('close');
          await exited;
        },
      }),
    );
  });
