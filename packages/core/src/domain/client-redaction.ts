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
 * A document key (`<uuid>_<filename>`) without its file name: `<uuid>_[redacted]`, the id kept (a key
 * with no `_` becomes `[redacted]`). Idempotent. PostgreSQL's `document_key_redacted` (migration
 * 0027) is the same rule.
 */
export const redactedDocumentKey = (key: string): string => {
  const cut = key.indexOf('_');
  return cut < 0 ? REDACTED_VALUE : `${key.slice(0, cut)}_${REDACTED_VALUE}`;
};

/**
 * An event of the client as redaction leaves it: a state event keeps the client's id, type, status
 * and timestamps of that moment; `documents.promoted` keeps its document keys without their file
 * names (`redactedDocumentKey`), as the document index keeps them.
 */
export const redactClientEvent = (event: ClientEvent, redactedAt: string): ClientEvent => {
  switch (event.type) {
    case 'documents.promoted':
      return { ...event, data: { ...event.data, documents: event.data.documents.map(redactedDocumentKey) } };
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
