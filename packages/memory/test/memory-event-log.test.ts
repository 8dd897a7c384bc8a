import { randomUUID } from 'node:crypto';
import type { LoggedEvent } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

/** An event of the log; its body is not what these reads look at, so it is kept small. */
const loggedEvent = (managerId: string, n: number): LoggedEvent => ({
  managerId,
  clientId: `client-of-${managerId}`,
  event: {
    id: randomUUID(),
    type: n % 2 === 0 ? 'client.created' : 'documents.promoted',
    apiVersion: '1.0.0',
    createdAt: new Date(Date.UTC(2031, 0, 1, 0, 0, n)).toISOString(),
    data: { clientId: `client-of-${managerId}`, documents: [`document-${n}`] },
  } as LoggedEvent['event'],
});

describe('the memory event log, read through its indexes', () => {
  it("answers a manager's feed and events by id from that manager's and those ids' rows, committed and staged, in position order", async () => {
    const adapters = createMemoryAdapters();
    const managers = ['m-a', 'm-b', 'm-c'];
    const written: LoggedEvent[] = [];
    // 300 events over three managers, interleaved, ten to a transaction.
    for (let batch = 0; batch < 30; batch += 1) {
      const events = Array.from({ length: 10 }, (_, i) =>
        loggedEvent(managers[(batch * 10 + i) % 3] as string, batch * 10 + i),
      );
      written.push(...events);
      (await adapters.unitOfWork.transaction((stores) => stores.events.append(events)))._unsafeUnwrap();
    }
    const feed = (
      await adapters.events.listForManager({ managerId: 'm-b', limit: 1000, type: 'client.created' })
    )._unsafeUnwrap();
    const expected = written.filter((e) => e.managerId === 'm-b' && e.event.type === 'client.created');
    expect(feed.map((row) => row.event.id)).toEqual(expected.map((e) => e.event.id));
    const positions = feed.map((row) => Number(row.position));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const page = (
      await adapters.events.listForManager({
        managerId: 'm-b',
        limit: 5,
        afterPosition: feed[2]?.position ?? '0',
      })
    )._unsafeUnwrap();
    expect(page.map((row) => row.position)).toEqual(
      written
        .map((e, index) => ({ e, position: index + 1 }))
        .filter(({ e, position }) => e.managerId === 'm-b' && position > Number(feed[2]?.position))
        .slice(0, 5)
        .map(({ position }) => String(position)),
    );

    // By id: in position order whatever the order asked, a repeated id once, an unknown id nothing.
    const wanted = [written[250], written[3], written[3], written[120]].map((e) => e?.event.id ?? '');
    const found = (await adapters.events.findByIds([...wanted, randomUUID()]))._unsafeUnwrap();
    expect(found.map((e) => e.event.id)).toEqual(
      [written[3], written[120], written[250]].map((e) => e?.event.id),
    );
    expect(found[0]).toEqual(written[3]);

    // Inside a transaction, its own staged events are found too; outside, not until it commits.
    const staged = loggedEvent('m-a', 999);
    const inside = await adapters.unitOfWork.transaction((stores) =>
      stores.events
        .append([staged])
        .andThen(() => adapters.events.findByIds([staged.event.id]).map((outside) => outside.length)),
    );
    expect(inside._unsafeUnwrap()).toBe(0);
    expect((await adapters.events.findByIds([staged.event.id]))._unsafeUnwrap()).toEqual([staged]);
  });
});
