import fc from 'fast-check';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  clientNotFound,
  clientTypeMismatch,
  commitOutcomeUnknown,
  documentNotFound,
  fingerprintRequestBody,
  forbidden,
  type IdempotencyLockLost,
  idempotencyKeyReused,
  idempotencyRequestInProgress,
  invalidStatus,
  isRecordableRefusal,
  parseIdempotencyKey,
  presetFeeNotFound,
  signedLinkRejected,
  storageUnavailable,
  type UnitOfWork,
  unauthorized,
  validationFailed,
  webhookDeliveryNotFound,
  webhookEndpointLimitReached,
  webhookEndpointNotFound,
} from '../src/adapter.js';
import { lockLostAsInProgress } from '../src/errors.js';
import {
  createOnboardingKit,
  type DomainError,
  exampleIndividualPayload,
  type IdempotentCommandContext,
  type OnboardingKit,
} from '../src/index.js';
import { canonicalJson, MAX_BODY_NESTING } from '../src/services/idempotency-service.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

/**
 * What the express binding does around a command: claim the key, then hand the claim to the
 * command, which owns it from there (records its outcome or releases the key).
 */
const idempotentCreate = async (
  kit: OnboardingKit,
  manager: ReturnType<typeof aManager>,
  key: string,
  body: unknown,
) => {
  const scope = `manager:${manager.managerId}|POST|/clients/individuals`;
  const claim = await kit.idempotency.claim({ scope, key, owner: `manager:${manager.managerId}`, body });
  if (claim.isErr()) return { refused: claim.error.type } as const;
  if (claim.value.type === 'Replay') return { replayed: claim.value.outcome } as const;
  const command: IdempotentCommandContext = { claim: claim.value.ref };
  return { ran: await kit.clients.createIndividual(manager, body, command) } as const;
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
    expect(second.replayed).toEqual({ kind: 'command', ok: true, value: client });
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data).toHaveLength(1);
  });

  it('treats key order as the same request, and a different body as a reused key (record unchanged)', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const body = exampleIndividualPayload();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await idempotentCreate(kit, manager, 'key-2', body);
    expect((await idempotentCreate(kit, manager, 'key-2', reordered)).replayed).toMatchObject({ ok: true });
    const changed = { ...body, blockchainWallets: [] };
    expect(await idempotentCreate(kit, manager, 'key-2', changed)).toEqual({
      refused: 'IdempotencyKeyReused',
    });
    expect((await idempotentCreate(kit, manager, 'key-2', body)).replayed).toEqual({
      kind: 'command',
      ok: true,
      value: first.ran?._unsafeUnwrap(),
    });
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
      claim: claim.ref,
    });
    expect(result._unsafeUnwrapErr().type).toBe('ClientNotFound');
    const replay = (
      await kit.idempotency.claim({ scope, owner: 'manager:m', key: 'k', body: {} })
    )._unsafeUnwrap();
    expect(replay).toEqual({
      type: 'Replay',
      outcome: { kind: 'command', ok: false, error: { type: 'ClientNotFound', clientId: unknownId } },
    });
  });

  it('every command owns its claim: success recorded, refusal recorded, any other failure released', async () => {
    const { kit, upload } = createMemoryKit();
    const manager = aManager();
    const owner = `manager:${manager.managerId}`;
    const claimFor = async (scope: string) => {
      const claimed = (await kit.idempotency.claim({ scope, owner, key: 'k', body: {} }))._unsafeUnwrap();
      if (claimed.type !== 'Claimed') throw new Error('expected a claim');
      return claimed.ref;
    };
    const replayOf = async (scope: string) =>
      (await kit.idempotency.claim({ scope, owner, key: 'k', body: {} }))._unsafeUnwrap();

    // A command without a write of its own (presigning) is recorded once it is done.
    const links = await kit.documents.requestUploadBatch(
      manager,
      { filenames: ['a.pdf'] },
      { claim: await claimFor('upload') },
    );
    expect(await replayOf('upload')).toEqual({
      type: 'Replay',
      outcome: { kind: 'command', ok: true, value: links._unsafeUnwrap() },
    });
    // A refusal decided by stored state is recorded (404 DOCUMENT_NOT_FOUND).
    const missing = `${crypto.randomUUID()}_x.pdf`;
    await kit.documents.requestDownloadBatch(
      manager,
      { filenames: [missing] },
      { claim: await claimFor('download') },
    );
    expect(await replayOf('download')).toEqual({
      type: 'Replay',
      outcome: { kind: 'command', ok: false, error: { type: 'DocumentNotFound', keys: [missing] } },
    });
    // Invalid input is not: the key is free again for the corrected request.
    await kit.compliance.requestResubmission(
      { kind: 'compliance', complianceId: 'c' },
      crypto.randomUUID(),
      { reason: '' },
      { claim: await claimFor('review') },
    );
    expect((await replayOf('review')).type).toBe('Claimed');
    // A transition records its success in its own transaction.
    await upload(manager, 'passport.pdf');
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const deleted = await kit.clients.delete(manager, client.id, { claim: await claimFor('delete') });
    expect(await replayOf('delete')).toEqual({
      type: 'Replay',
      outcome: { kind: 'command', ok: true, value: deleted._unsafeUnwrap() },
    });
  });

  it('a claim found lost at the commit (an adapter that sends the completion with it) answers in progress and keeps nothing', async () => {
    const { adapters, upload } = createMemoryKit();
    // A unit of work that, like the PostgreSQL one, checks the completion only when it commits:
    // here it refuses every commit that way (the memory transaction rolls back).
    const unitOfWork: UnitOfWork = {
      transaction: (work) =>
        adapters.unitOfWork.transaction((stores) =>
          work(stores).andThen(() =>
            errAsync<never, IdempotencyLockLost>({ type: 'IdempotencyLockLost', scope: 'any', key: 'any' }),
          ),
        ),
    };
    const kit = createOnboardingKit({ ...adapters, unitOfWork });
    const manager = aManager();
    await upload(manager, 'passport.pdf');
    const outcome = await idempotentCreate(kit, manager, 'key-lost', exampleIndividualPayload());
    expect(outcome.ran?._unsafeUnwrapErr()).toMatchObject({ type: 'IdempotencyRequestInProgress' });
    expect((await kit.clients.list(manager, {}))._unsafeUnwrap().data).toEqual([]);
  });

  it('lockLostAsInProgress: a lost lock is "in progress" for its holder, any other error stays as it is', () => {
    const lost: IdempotencyLockLost = { type: 'IdempotencyLockLost', scope: 's', key: 'k' };
    expect(lockLostAsInProgress(lost)).toEqual({ type: 'IdempotencyRequestInProgress' });
    const notFound = clientNotFound('c');
    expect(lockLostAsInProgress(notFound)).toBe(notFound);
  });

  it('isRecordableRefusal: only refusals decided against stored state are recorded and replayed', () => {
    const recorded: DomainError[] = [
      clientNotFound('c'),
      documentNotFound(['k']),
      presetFeeNotFound('f'),
      invalidStatus('c', 'VERIFIED', 'APPROVE'),
      clientTypeMismatch('c', 'ENTITY', 'INDIVIDUAL'),
      webhookEndpointNotFound('e'),
      webhookDeliveryNotFound('d'),
    ];
    const released: DomainError[] = [
      validationFailed('bad'),
      unauthorized(),
      forbidden('no'),
      idempotencyRequestInProgress(),
      idempotencyKeyReused(),
      { type: 'IdempotencyQuotaExceeded', limit: 1, retryAfterSeconds: 1 },
      signedLinkRejected('expired'),
      webhookEndpointLimitReached(20),
      storageUnavailable('postgres')(new Error('down')),
      commitOutcomeUnknown('postgres')(new Error('lost')),
    ];
    expect(recorded.map(isRecordableRefusal)).toEqual(recorded.map(() => true));
    expect(released.map(isRecordableRefusal)).toEqual(released.map(() => false));
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
      (
        await kit.idempotency.complete(claim.ref, { kind: 'response', status: 201, body: {} })
      )._unsafeUnwrapErr().type,
    ).toBe('IdempotencyRequestInProgress');
    if (takeover.type !== 'Claimed') throw new Error('expected a claim');
    (
      await kit.idempotency.complete(takeover.ref, { kind: 'response', status: 201, body: { done: true } })
    )._unsafeUnwrap();
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
      if (claim.type === 'Claimed')
        await kit.idempotency.complete(claim.ref, { kind: 'response', status: 200, body: {} });
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
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })._unsafeUnwrap()).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const fingerprint = (body: unknown) => fingerprintRequestBody(body)._unsafeUnwrap();
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  /** `levels` arrays and objects, one inside the other. */
  const nested = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { v: value };
    return value;
  };

  it(`refuse a body nested deeper than ${MAX_BODY_NESTING} levels, a cyclic one and a BigInt: a 400, never a stack overflow`, () => {
    expect(canonicalJson(nested(MAX_BODY_NESTING)).isOk()).toBe(true);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const body of [nested(MAX_BODY_NESTING + 1), nested(20_000), nested(1_000_000), cyclic]) {
      expect(fingerprintRequestBody(body)._unsafeUnwrapErr()).toEqual({
        type: 'ValidationFailed',
        reason: `The request body is nested too deeply (more than ${MAX_BODY_NESTING} levels)`,
        parameterErrors: {
          body: [`The request body is nested too deeply (more than ${MAX_BODY_NESTING} levels)`],
        },
      });
    }
    expect(fingerprintRequestBody({ amount: 10n })._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { body: [expect.stringContaining('BigInt')] },
    });
  });

  it('a claim of a body without a fingerprint is refused and stores nothing: the key stays free', async () => {
    const { kit } = createMemoryKit();
    const request = { scope: 'manager:m POST /x', key: 'deep', owner: 'manager:m' };
    const refused = await kit.idempotency.claim({ ...request, body: nested(20_000) });
    expect(refused._unsafeUnwrapErr().type).toBe('ValidationFailed');
    const claimed = await kit.idempotency.claim({ ...request, body: { ordinary: true } });
    expect(claimed._unsafeUnwrap().type).toBe('Claimed');
  });

  // The definition every stored fingerprint was computed with: the text must stay byte for byte.
  const firstCanonicalJson = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value)) return `[${value.map(firstCanonicalJson).join(',')}]`;
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${firstCanonicalJson(v)}`).join(',')}}`;
  };

  it('write the very text of their first definition, for any JSON and any in-process body', () => {
    const anyValue = fc.anything({
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      key: fc.string({ unit: 'binary' }),
      values: [fc.string({ unit: 'binary' }), fc.double(), fc.boolean(), fc.constant(undefined)],
    });
    fc.assert(
      fc.property(fc.oneof(anyValue, fc.jsonValue()), (value) => {
        expect(canonicalJson(value)._unsafeUnwrap()).toBe(firstCanonicalJson(value));
      }),
      { numRuns: 2_000 },
    );
    // A hole writes nothing, an undefined entry null: `[null,,1]` is what both definitions say.
    const withHole = [undefined, 0, 1];
    delete withHole[1];
    const body = { b: undefined, a: withHole, é: 1, Z: 2, _: 3 };
    expect(canonicalJson(body)._unsafeUnwrap()).toBe('{"Z":2,"_":3,"a":[null,,1],"é":1}');
    expect(canonicalJson(body)._unsafeUnwrap()).toBe(firstCanonicalJson(body));
  });
});
