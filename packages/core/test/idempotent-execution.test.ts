import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/idempotency/request-fingerprint.js';
import {
  exampleIndividualPayload,
  fingerprintRequestBody,
  type IdempotentCommandContext,
  type OnboardingKit,
  parseIdempotencyKey,
} from '../src/index.js';
import { aManager, createMemoryKit, encodeForTest } from './support/memory-kit.js';

/** What the express binding does around a command: claim, run with the in-transaction encoder, release. */
const idempotentCreate = async (
  kit: OnboardingKit,
  manager: ReturnType<typeof aManager>,
  key: string,
  body: unknown,
) => {
  const scope = `manager:${manager.managerId}|POST|/clients/individuals`;
  const claim = await kit.idempotency.claim({ scope, key, owner: `manager:${manager.managerId}`, body });
  if (claim.isErr()) return { refused: claim.error.type } as const;
  if (claim.value.type === 'Replay') return { replayed: claim.value.response } as const;
  let recorded = false;
  const encode = encodeForTest(201);
  const command: IdempotentCommandContext = {
    idempotency: {
      ref: claim.value.ref,
      encode: (outcome) => {
        const response = encode(outcome);
        recorded = response !== null;
        return response;
      },
    },
  };
  const result = await kit.clients.createIndividual(manager, body, command);
  if (!recorded) await kit.idempotency.release(claim.value.ref);
  return { ran: result } as const;
};

describe('idempotent execution (decisions §5)', () => {
  it('replays the stored response and runs nothing again', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const body = exampleIndividualPayload();
    const first = await idempotentCreate(kit, manager, 'key-1', body);
    const client = first.ran?._unsafeUnwrap();
    const second = await idempotentCreate(kit, manager, 'key-1', body);
    expect(second.replayed).toEqual({ status: 201, body: client });
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data).toHaveLength(1);
  });

  it('treats key order as the same request, and a different body as a reused key (record unchanged)', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const body = exampleIndividualPayload();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await idempotentCreate(kit, manager, 'key-2', body);
    expect((await idempotentCreate(kit, manager, 'key-2', reordered)).replayed?.status).toBe(201);
    const changed = { ...body, blockchainWallets: [] };
    expect(await idempotentCreate(kit, manager, 'key-2', changed)).toEqual({
      refused: 'IdempotencyKeyReused',
    });
    expect((await idempotentCreate(kit, manager, 'key-2', body)).replayed?.body).toEqual(
      first.ran?._unsafeUnwrap(),
    );
  });

  it('answers in-progress while the first request still runs', async () => {
    const { kit } = createMemoryKit();
    const scope = 'manager:x|POST|/clients/individuals';
    const claimed = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: {} })
    )._unsafeUnwrap();
    expect(claimed.type).toBe('Claimed');
    expect(
      (await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: {} }))._unsafeUnwrapErr()
        .type,
    ).toBe('IdempotencyRequestInProgress');
  });

  it('does not store a 400: the key is released and a corrected retry runs (a file uploaded after it is used)', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    const body = exampleIndividualPayload();
    const failed = await idempotentCreate(kit, manager, 'key-3', body);
    expect(failed.ran?._unsafeUnwrapErr().type).toBe('ValidationFailed');
    await upload(manager, 'passport.pdf');
    const retried = await idempotentCreate(kit, manager, 'key-3', body);
    expect(retried.ran?._unsafeUnwrap().status).toBe('ONBOARDING_UNDER_REVIEW');
  });

  it('stores a business refusal (404) and replays it', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const scope = `manager:${manager.managerId}|PUT|/clients/individuals/x/onboarding`;
    const unknownId = crypto.randomUUID();
    const claim = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: {} })
    )._unsafeUnwrap();
    if (claim.type !== 'Claimed') throw new Error('expected a claim');
    const result = await kit.clients.resubmitIndividual(manager, unknownId, exampleIndividualPayload(), {
      idempotency: { ref: claim.ref, encode: encodeForTest(201) },
    });
    expect(result._unsafeUnwrapErr().type).toBe('ClientNotFound');
    const replay = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: {} })
    )._unsafeUnwrap();
    expect(replay).toEqual({
      type: 'Replay',
      response: { status: 404, body: { type: 'ClientNotFound', clientId: unknownId } },
    });
  });

  it('runs 50 concurrent same-key creates exactly once', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const body = exampleIndividualPayload();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => idempotentCreate(kit, manager, 'same', body)),
    );
    expect(outcomes.filter((o) => o.ran !== undefined)).toHaveLength(1);
    expect(outcomes.filter((o) => o.refused === 'IdempotencyRequestInProgress' || o.replayed).length).toBe(
      49,
    );
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data).toHaveLength(1);
  });

  it('scopes keys: another manager with the same key runs separately', async () => {
    const { kit, upload } = createMemoryKit();
    const a = aManager();
    const b = aManager();
    await upload(a, 'passport.pdf');
    await upload(b, 'passport.pdf');
    const body = exampleIndividualPayload();
    const first = await idempotentCreate(kit, a, 'shared', body);
    const second = await idempotentCreate(kit, b, 'shared', body);
    expect(second.ran?._unsafeUnwrap().id).not.toBe(first.ran?._unsafeUnwrap().id);
  });

  it('forgets records after 24 hours and takes over a crashed holder’s lock after 60 seconds', async () => {
    const { kit, clock } = createMemoryKit();
    const scope = 'manager:y|POST|/x';
    const claim = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: { a: 1 } })
    )._unsafeUnwrap();
    if (claim.type !== 'Claimed') throw new Error('expected a claim');
    clock.advance(59_000);
    expect(
      (await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: { a: 1 } })).isErr(),
    ).toBe(true);
    clock.advance(2_000);
    const takeover = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: { a: 1 } })
    )._unsafeUnwrap();
    expect(takeover.type).toBe('Claimed');
    // The crashed holder comes back: its fenced token no longer completes.
    expect(
      (await kit.idempotency.complete(claim.ref, { status: 201, body: {} }))._unsafeUnwrapErr().type,
    ).toBe('IdempotencyRequestInProgress');
    if (takeover.type !== 'Claimed') throw new Error('expected a claim');
    (await kit.idempotency.complete(takeover.ref, { status: 201, body: { done: true } }))._unsafeUnwrap();
    clock.advance(24 * 60 * 60 * 1000);
    expect(
      (
        await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: { other: 1 } })
      )._unsafeUnwrapErr().type,
    ).toBe('IdempotencyKeyReused');
    clock.advance(1);
    expect(
      (
        await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: { other: 1 } })
      )._unsafeUnwrap().type,
    ).toBe('Claimed');
  });

  it('purges expired records in batches', async () => {
    const { kit, clock } = createMemoryKit();
    for (let i = 0; i < 7; i += 1) {
      const claim = (
        await kit.idempotency.claim({ scope: 's', owner: 'manager:m', key: `k${i}`, body: {} })
      )._unsafeUnwrap();
      if (claim.type === 'Claimed') await kit.idempotency.complete(claim.ref, { status: 200, body: {} });
    }
    clock.advance(24 * 60 * 60 * 1000 + 1);
    await kit.idempotency.claim({ scope: 's', owner: 'manager:m', key: 'fresh', body: {} });
    expect((await kit.idempotency.purgeExpired(3))._unsafeUnwrap()).toBe(7);
    expect((await kit.idempotency.purgeExpired(3))._unsafeUnwrap()).toBe(0);
  });
});

describe('the Idempotency-Key header', () => {
  it.each([
    [undefined, null],
    ['abc-123', 'abc-123'],
    ['"quoted key"', null],
    ['"quoted-key"', 'quoted-key'],
    ['"with \\"escape\\""', null],
    [['one'], 'one'],
    ['x'.repeat(255), 'x'.repeat(255)],
  ])('reads %j', (header, expected) => {
    const parsed = parseIdempotencyKey(header);
    if (expected === null && header !== undefined) expect(parsed.isErr()).toBe(true);
    else expect(parsed._unsafeUnwrap()).toBe(expected);
  });
  it.each([[''], ['  '], ['a,b'], ['x'.repeat(256)], ['café'], ['has space'], ['""'], ['"unterminated']])(
    'refuses %j',
    (header) => {
      expect(parseIdempotencyKey(header)._unsafeUnwrapErr().type).toBe('ValidationFailed');
    },
  );
  it('refuses a repeated header', () => {
    expect(parseIdempotencyKey(['a', 'b'])._unsafeUnwrapErr().type).toBe('ValidationFailed');
  });
});

describe('request fingerprints', () => {
  it('ignore key order at every depth and see every value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(fingerprintRequestBody({ a: 1, b: 2 })).toBe(fingerprintRequestBody({ b: 2, a: 1 }));
    expect(fingerprintRequestBody({ a: 1 })).not.toBe(fingerprintRequestBody({ a: 2 }));
    expect(fingerprintRequestBody({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
