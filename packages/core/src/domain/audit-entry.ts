import type { Principal } from '../principal.js';
import type { AuditAction, AuditActor, AuditChange, AuditEntry } from '../schemas/audit.js';
import { appendToJsonPath, isStorableText, toWellFormedText } from '../validation/parse-request.js';
import type { StoredClient } from './client.js';
import type { ClientStatusTrigger } from './status-machine.js';

/** An entry as a command writes it: `runCommand` adds the request id of the call. */
export type CommandAuditEntry = Omit<AuditEntry, 'requestId'>;

export const auditActionOfTrigger: Readonly<Record<ClientStatusTrigger, AuditAction>> = {
  CREATE: 'create',
  RESUBMIT: 'resubmit',
  APPROVE: 'approve',
  REQUEST_RESUBMISSION: 'request-resubmission',
  SIGN_TERMS: 'terms-signed',
  DELETE: 'delete',
};

/** A request id is the host's (a header): at most this long in the trail. */
export const MAX_AUDIT_REQUEST_ID_LENGTH = 200;

/** The request id as the trail keeps it: cut to its first 200 characters, null when absent or not storable. */
export const auditRequestId = (requestId: string | undefined): string | null =>
  requestId === undefined || requestId === '' || !isStorableText(requestId)
    ? null
    : toWellFormedText(requestId.slice(0, MAX_AUDIT_REQUEST_ID_LENGTH));

/** The actor of a principal's changes: its own id (a compliance principal's is the key's registered `complianceId`). */
export const auditActorOf = (principal: Principal): AuditActor => {
  switch (principal.kind) {
    case 'manager':
      return { kind: 'manager', id: principal.managerId };
    case 'client':
      return { kind: 'client', id: principal.clientId };
    case 'compliance':
      return { kind: 'compliance', id: principal.complianceId };
  }
};

/** The actor as the status history names it: `principalKey` for principals, `system:<job>` for jobs. */
export const auditActorKey = (actor: AuditActor): string => `${actor.kind}:${actor.id}`;

const withoutStamps = <T extends object>(row: T): Partial<T> => {
  const {
    id: _id,
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    deletedAt: _deletedAt,
    ...rest
  } = row as T & {
    id?: unknown;
    createdAt?: unknown;
    updatedAt?: unknown;
    deletedAt?: unknown;
  };
  return rest as Partial<T>;
};

/**
 * What the trail compares: the client's onboarding information under its payload's names (ids and
 * timestamps the kit stamps on rows left out, so a resubmission of the same account lists nothing),
 * its status and its resubmission reason.
 */
export const auditedFields = (client: StoredClient): Record<string, unknown> => {
  const status = { status: client.status, onboardingResubmissionReason: client.onboardingResubmissionReason };
  const accounts = {
    bankAccounts: client.bankAccounts.map(withoutStamps),
    blockchainWallets: client.blockchainWallets.map(withoutStamps),
  };
  switch (client.clientType) {
    case 'INDIVIDUAL':
      return {
        ...status,
        profile: client.individualProfile,
        sourceOfFunds: client.individualSourceOfFunds,
        ...accounts,
      };
    case 'ENTITY':
      return {
        ...status,
        company: client.company,
        representatives: client.companyRepresentatives?.map(withoutStamps) ?? null,
        companyDirectorsAndUbos: client.companyDirectorsAndUbos,
        ...accounts,
      };
  }
};

const isNested = (value: unknown): value is object => typeof value === 'object' && value !== null;
const isAbsent = (value: unknown): value is null | undefined => value === null || value === undefined;

/** The keys of a nested value: an array's indexes (numbers), an object's own property names. */
const keysOf = (value: object | undefined): PropertyKey[] => {
  if (value === undefined) return [];
  return Array.isArray(value) ? Array.from(value, (_, index) => index) : Object.keys(value);
};

/**
 * The keys of either side, each once: those of `from` in its order, then those only `to` has. When
 * one side is absent (a create, an added item) its other side's keys are read as they are.
 */
const keysOfEither = (from: object | undefined, to: object | undefined): Iterable<PropertyKey> => {
  if (from === undefined) return keysOf(to);
  if (to === undefined) return keysOf(from);
  const keys = new Set<PropertyKey>(keysOf(from));
  for (const key of keysOf(to)) keys.add(key);
  return keys;
};

/** A child of a nested value: an array has only indexes, an object only its own properties. */
const childOf = (value: object | undefined, key: PropertyKey): unknown => {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return typeof key === 'number' ? value[key] : undefined;
  return typeof key === 'string' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
};

/**
 * Two leaves are the same when their JSON is. Only numbers (NaN and the infinities are `null` in
 * JSON) and nested values (compared whole) need the JSON: distinct strings and booleans never match.
 */
const sameLeaf = (before: unknown, after: unknown): boolean =>
  before === after ||
  ((typeof before === 'number' || typeof before === 'object') &&
    (typeof after === 'number' || typeof after === 'object') &&
    JSON.stringify(before) === JSON.stringify(after));

const collectChanges = (path: string, before: unknown, after: unknown, changes: AuditChange[]): void => {
  const nestedBefore = isNested(before);
  const nestedAfter = isNested(after);
  if (
    (nestedBefore || nestedAfter) &&
    (nestedBefore || isAbsent(before)) &&
    (nestedAfter || isAbsent(after))
  ) {
    const from = nestedBefore ? before : undefined;
    const to = nestedAfter ? after : undefined;
    for (const key of keysOfEither(from, to)) {
      collectChanges(appendToJsonPath(path, key), childOf(from, key), childOf(to, key), changes);
    }
    return;
  }
  if (!sameLeaf(before ?? null, after ?? null)) {
    changes.push({ path: path === '' ? '$' : path, before: before ?? null, after: after ?? null });
  }
};

/** The fields that differ, one leaf per JSON path (as in `parameterErrors`), in the order of the fields. */
export const auditChanges = (before: StoredClient | null, after: StoredClient): AuditChange[] => {
  const changes: AuditChange[] = [];
  collectChanges('', before === null ? null : auditedFields(before), auditedFields(after), changes);
  return changes;
};
