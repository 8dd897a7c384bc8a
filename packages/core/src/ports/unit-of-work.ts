import type { ResultAsync } from 'neverthrow';
import type { StorageUnavailable } from '../errors.js';
import type { ClientRepository } from './client-repository.js';
import type { DocumentIndex } from './document-index.js';
import type { IdempotencyStore } from './idempotency-store.js';

/** The stores a command writes through, all bound to one transaction. */
export type TransactionalStores = {
  readonly clients: ClientRepository;
  readonly documents: DocumentIndex;
  readonly idempotency: Pick<IdempotencyStore, 'complete'>;
};

/**
 * The transaction boundary: everything `work` writes commits together when it resolves Ok, and
 * nothing of it is kept when it resolves Err or the commit fails.
 */
export interface UnitOfWork {
  transaction<T, E>(
    work: (stores: TransactionalStores) => ResultAsync<T, E>,
  ): ResultAsync<T, E | StorageUnavailable>;
}
