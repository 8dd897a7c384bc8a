/**
 * The TCP latency proxy (test-support/tcp-latency-proxy.ts) in a process of its own, so that the load
 * generator and the servers under test never delay its relaying on a 2-core machine:
 * `node --import tsx bench/tcp-latency-proxy-process.ts <host> <port> <addedRoundTripMs>`, started
 * with an IPC channel (`fork`). It sends `{ port }` once listening, answers `'roundTrips'` with
 * `{ roundTrips }`, and exits on `'close'` or when its parent goes away.
 */
import { startTcpLatencyProxy } from '../test-support/tcp-latency-proxy.js';

const [host = '127.0.0.1', port = '5432', addedMs = '1'] = process.argv.slice(2);
const proxy = await startTcpLatencyProxy({ host, port: Number(port) }, Number(addedMs));
const send = (message: unknown) => process.send?.(message);
process.on('message', (message) => {
  if (message === 'roundTrips') send({ roundTrips: proxy.roundTrips() });
  if (message === 'close') void proxy.close().then(() => process.exit(0));
});
process.on('disconnect', () => void proxy.close().then(() => process.exit(0)));
send({ port: proxy.port });
