import type { RecordedOutcome } from '../ports/idempotency-store.js';
import type { ClientEvent } from '../schemas/client-events.js';
import type { Client } from '../schemas/client-response.js';

/** What redaction leaves in place of a value of `changes` (decisions §11). */
export const REDACTED_VALUE = '[redacted]';

/**
 * The client without its personal data (decisions §11): ids, type, status and timestamps stay;
 * every onboarding object, account, wallet, reason, requirement, terms evidence and screening
 * (its hits name people, its resolutions give reasons) goes.
 */
export const redactClient = <C extends Omit<Client, 'requirements'>>(client: C, redactedAt: string): C => ({
  ...client,
  company: null,
  companyRepresentatives: null,
  companyDirectorsAndUbos: null,
  individualProfile: null,
  individualSourceOfFunds: null,
  onboardingResubmissionReason: null,
  resubmissionRequirements: null,
  bankAccounts: [],
  blockchainWallets: [],
  termsAcceptance: null,
  screening: null,
  redactedAt,
});

/**
 * An event of the client as redaction leaves it: a state event keeps the client's id, type, status
 * and timestamps of that moment; the document keys of `documents.promoted` are ids and stay.
 */
export const redactClientEvent = (event: ClientEvent, redactedAt: string): ClientEvent => {
  switch (event.type) {
    case 'documents.promoted':
      return event;
    case 'client.screening_hit_resolved':
      return { ...event, data: { ...event.data, client: redactClient(event.data.client, redactedAt) } };
    default:
      return { ...event, data: { client: redactClient(event.data.client, redactedAt) } };
  }
};

const collectDocumentKeys = (value: unknown, underDocuments: boolean, keys: Set<string>): void => {
  if (typeof value === 'string') {
    if (underDocuments) keys.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectDocumentKeys(item, underDocuments, keys);
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, field] of Object.entries(value)) {
      collectDocumentKeys(field, name.endsWith('Documents'), keys);
    }
  }
};

/** The document keys the client's onboarding information names (every `…Documents` field). */
export const documentKeysOfClient = (client: Omit<Client, 'requirements'>): string[] => {
  const keys = new Set<string>();
  collectDocumentKeys(client, false, keys);
  return [...keys];
};

/** Every client object in `value` with this id, redacted; the rest as it is. */
const redactClientsIn = (value: unknown, clientId: string, redactedAt: string): unknown => {
  if (Array.isArray(value)) return value.map((item) => redactClientsIn(item, clientId, redactedAt));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (object.id === clientId && 'clientType' in object) return redactClient(object as Client, redactedAt);
  return Object.fromEntries(
    Object.entries(object).map(([name, field]) => [name, redactClientsIn(field, clientId, redactedAt)]),
  );
};

/**
 * A stored idempotent answer as redaction leaves it: a kit command's value keeps its shape, with
 * the client redacted as it stood then (a create's key replays the created client, redacted; a
 * delete's the deleted one); a refusal names ids and statuses only and stays; a host route's body,
 * which the kit cannot read, becomes `"[redacted]"` under its status.
 */
export const redactRecordedOutcome = (
  outcome: RecordedOutcome,
  clientId: string,
  redactedAt: string,
): RecordedOutcome => {
  switch (outcome.kind) {
    case 'command':
      return outcome.ok
        ? { ...outcome, value: redactClientsIn(outcome.value, clientId, redactedAt) }
        : outcome;
    case 'response':
      return { ...outcome, body: REDACTED_VALUE };
  }
};
