import type { Principal } from '../principal.js';
import type { AuditAction, AuditActor, AuditChange, AuditEntry } from '../schemas/audit.js';
import { appendToJsonPath } from '../validation/parse-request.js';
import { isStorableText, toWellFormedText } from '../validation/storable-text.js';
import type { ClientStatusTrigger } from './status-machine.js';
import type { StoredClient } from './stored-client.js';

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

const childrenOf = (value: unknown): Map<PropertyKey, unknown> | undefined => {
  if (Array.isArray(value)) return new Map(value.map((item, index) => [index, item]));
  if (typeof value === 'object' && value !== null) return new Map(Object.entries(value));
  return undefined;
};

const collectChanges = (path: string, before: unknown, after: unknown, changes: AuditChange[]): void => {
  const from = childrenOf(before);
  const to = childrenOf(after);
  const absent = (value: unknown) => value === null || value === undefined;
  if (
    (from !== undefined || to !== undefined) &&
    (from !== undefined || absent(before)) &&
    (to !== undefined || absent(after))
  ) {
    const keys = new Set<PropertyKey>([...(from?.keys() ?? []), ...(to?.keys() ?? [])]);
    for (const key of keys)
      collectChanges(appendToJsonPath(path, key), from?.get(key), to?.get(key), changes);
    return;
  }
  if (JSON.stringify(before ?? null) !== JSON.stringify(after ?? null)) {
    changes.push({ path: path === '' ? '$' : path, before: before ?? null, after: after ?? null });
  }
};

/** The fields that differ, one leaf per JSON path (as in `parameterErrors`), in the order of the fields. */
export const auditChanges = (before: StoredClient | null, after: StoredClient): AuditChange[] => {
  const changes: AuditChange[] = [];
  collectChanges('', before === null ? null : auditedFields(before), auditedFields(after), changes);
  return changes;
};
