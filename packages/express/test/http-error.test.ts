import type { DomainError } from '@onboarding-kit/core';
import {
  clientChanged,
  clientNotFound,
  clientTypeMismatch,
  documentNotFound,
  forbidden,
  idempotencyKeyReused,
  idempotencyRequestInProgress,
  invalidStatus,
  presetFeeNotFound,
  screeningUnresolved,
  signedLinkRejected,
  storageUnavailable,
  unauthorized,
  validationFailed,
} from '@onboarding-kit/core/adapter';
import { describe, expect, test } from 'vitest';
import {
  type HttpFailure,
  internal,
  malformedJson,
  payloadTooLarge,
  routeNotFound,
  toHttpError,
  unsupportedMediaType,
} from '../src/http-error.js';

/** Decisions §2: one status and code per failure, mapped in one place. */
const cases: [HttpFailure, number, string][] = [
  [validationFailed('bad', { 'profile.email': ['Invalid'] }), 400, 'VALIDATION_FAILED'],
  [malformedJson('Unexpected end'), 400, 'MALFORMED_JSON'],
  [unauthorized(), 401, 'UNAUTHORIZED'],
  [forbidden('other interface'), 403, 'FORBIDDEN'],
  [signedLinkRejected('expired'), 403, 'FORBIDDEN'],
  [signedLinkRejected('invalid'), 403, 'FORBIDDEN'],
  [routeNotFound('GET', '/x'), 404, 'NOT_FOUND'],
  [clientNotFound('c-1'), 404, 'CLIENT_NOT_FOUND'],
  [presetFeeNotFound('f-1'), 404, 'PRESET_FEE_NOT_FOUND'],
  [documentNotFound(['k-1', 'k-2']), 404, 'DOCUMENT_NOT_FOUND'],
  [invalidStatus('c-1', 'VERIFIED', 'APPROVE'), 409, 'INVALID_STATUS'],
  [clientTypeMismatch('c-1', 'INDIVIDUAL', 'ENTITY'), 409, 'INVALID_STATUS'],
  [idempotencyRequestInProgress(), 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS'],
  [clientChanged('c-1'), 412, 'CLIENT_CHANGED'],
  [payloadTooLarge(1_048_576), 413, 'PAYLOAD_TOO_LARGE'],
  [signedLinkRejected('too-large'), 413, 'PAYLOAD_TOO_LARGE'],
  [unsupportedMediaType('not JSON'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
  [idempotencyKeyReused(), 422, 'IDEMPOTENCY_KEY_REUSED'],
  [internal(new Error('secret detail')), 500, 'INTERNAL'],
  [
    storageUnavailable('postgres')(new Error('connect ECONNREFUSED 10.0.0.7:5432')),
    503,
    'STORAGE_UNAVAILABLE',
  ],
];

describe('toHttpError', () => {
  test.each(cases)('%o → %i %s', (failure, status, code) => {
    const answer = toHttpError(failure);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code, reason: expect.any(String) });
    expect(Object.keys(answer.body)).toEqual(['code', 'reason', 'parameterErrors']);
  });

  test('parameterErrors pass through; other failures carry null', () => {
    expect(
      toHttpError(validationFailed('bad', { 'profile.email': ['Invalid'] })).body.parameterErrors,
    ).toEqual({
      'profile.email': ['Invalid'],
    });
    expect(toHttpError(clientNotFound('c-1')).body.parameterErrors).toBeNull();
  });

  test('causes never reach the body', () => {
    for (const failure of [
      internal(new Error('secret detail')),
      storageUnavailable('postgres')(new Error('10.0.0.7')),
    ]) {
      const text = JSON.stringify(toHttpError(failure).body);
      expect(text).not.toContain('secret');
      expect(text).not.toContain('10.0.0.7');
      expect(text).not.toContain('postgres');
    }
  });

  test('INVALID_STATUS names the current status; in progress asks to retry after 1 s', () => {
    expect(toHttpError(invalidStatus('c-1', 'VERIFIED', 'APPROVE')).body.reason).toContain('VERIFIED');
    expect(toHttpError(idempotencyRequestInProgress()).headers).toEqual({ 'Retry-After': '1' });
  });

  test('SCREENING_UNRESOLVED says what holds the client back: its screening, or none ever made', () => {
    expect(toHttpError(screeningUnresolved('c-1', 'POSSIBLE_MATCH', 'APPROVE')).body.reason).toBe(
      'Client c-1 cannot be approved: its screening is POSSIBLE_MATCH with a hit not dismissed',
    );
    expect(toHttpError(screeningUnresolved('c-1', 'NONE', 'SIGN_TERMS')).body.reason).toBe(
      'Client c-1 cannot be verified: it was never screened (stored before screening was on): request a resubmission to screen it',
    );
  });
  test('every core error type is mapped (the compiler also checks it)', () => {
    const types = new Set(cases.map(([failure]) => failure.type));
    const domainTypes: DomainError['type'][] = [
      'ValidationFailed',
      'Unauthorized',
      'Forbidden',
      'ClientNotFound',
      'PresetFeeNotFound',
      'DocumentNotFound',
      'InvalidStatus',
      'ClientTypeMismatch',
      'IdempotencyRequestInProgress',
      'IdempotencyKeyReused',
      'SignedLinkRejected',
      'StorageUnavailable',
    ];
    for (const type of domainTypes) expect(types).toContain(type);
  });
});
