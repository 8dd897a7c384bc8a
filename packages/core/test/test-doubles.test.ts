import { describe, expect, it } from 'vitest';
import {
  createControllableClock,
  createRecordingWebhookTransport,
  createSequentialIds,
} from '../src/index.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('controllable clock', () => {
  it('starts where told, moves only when advanced or set', () => {
    const clock = createControllableClock(new Date('2031-01-01T00:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z');
    clock.advance(24 * 3_600_000 + 1);
    expect(clock.now().toISOString()).toBe('2031-01-02T00:00:00.001Z');
    clock.set(new Date('2030-06-01T12:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2030-06-01T12:00:00.000Z');
  });

  it('hands out copies: mutating a returned Date does not move the clock', () => {
    const clock = createControllableClock(new Date('2031-01-01T00:00:00.000Z'));
    clock.now().setFullYear(1999);
    expect(clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z');
  });
});

describe('sequential ids', () => {
  it('gives deterministic, distinct, valid UUID v4 strings per seed', () => {
    const first = createSequentialIds(7);
    const again = createSequentialIds(7);
    const other = createSequentialIds(8);
    const ids = Array.from({ length: 5 }, () => first.uuid());
    expect(Array.from({ length: 5 }, () => again.uuid())).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(uuidV4);
    expect(ids).not.toContain(other.uuid());
  });
});

describe('recording webhook transport', () => {
  it('keeps every request and answers 200 until told otherwise', async () => {
    const transport = createRecordingWebhookTransport();
    const request = {
      url: 'https://receiver.test/hooks',
      headers: {},
      body: '{}',
      timeoutMs: 1_000,
      allowPrivateNetworks: false,
    };
    expect((await transport.send(request))._unsafeUnwrap()).toMatchObject({ statusCode: 200 });
    transport.answerWith({ type: 'unreachable', reason: 'timeout' });
    expect((await transport.send(request))._unsafeUnwrap()).toEqual({
      type: 'unreachable',
      reason: 'timeout',
    });
    expect(transport.sent).toEqual([request, request]);
  });
});
