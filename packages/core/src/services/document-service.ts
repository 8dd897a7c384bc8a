import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { type IdempotentCommandContext, runCommand } from '../commands/idempotent-command.js';
import { auditActorOf, type CommandAuditEntry } from '../domain/audit-entry.js';
import type { DocumentRecord } from '../domain/documents.js';
import { clientNotFound, type DomainError, documentNotFound, validationFailed } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import {
  type CompliancePrincipal,
  type ManagerPrincipal,
  principalKey,
  type UploaderPrincipal,
} from '../principal.js';
import {
  type BatchDownloadResponse,
  type BatchUploadResponse,
  batchDownloadRequestSchema,
  batchUploadRequestSchema,
  type TemporaryFilesResponse,
} from '../schemas/documents.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

export interface DocumentService {
  requestUploadBatch(
    principal: UploaderPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<BatchUploadResponse, DomainError>;
  listUploads(principal: UploaderPrincipal): ResultAsync<TemporaryFilesResponse, DomainError>;
  requestDownloadBatch(
    principal: ManagerPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<BatchDownloadResponse, DomainError>;
  /**
   * Compliance's presigned downloads of one client's documents (any manager's client), audited as
   * the manager's are: a key that is not a document of that client is `DocumentNotFound`.
   */
  requestClientDownloadBatch(
    principal: CompliancePrincipal,
    clientId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<BatchDownloadResponse, DomainError>;
  /**
   * Removes permanent documents that no client references and that are older than `graceMs`
   * (default 24 hours): the copies of a command that crashed between its copy and its commit, or
   * whose commit was not kept. Safe to run on several instances at once (it deletes only what has no
   * index row); schedule it (the demo runs it hourly). Resolves to how many were removed.
   * `graceMs` below one hour (a copy still on its way to its commit could be taken) or a `pageSize`
   * outside 1..10,000 is refused with `ValidationFailed`. The index must be as durable as the files:
   * a memory index over S3 storage starts empty after a restart, and the sweep would then delete
   * every document (docs/host-integration.md §7).
   */
  sweepOrphanDocuments(options?: {
    readonly graceMs?: number;
    readonly pageSize?: number;
  }): ResultAsync<number, DomainError>;
}

const DEFAULT_SWEEP_GRACE_MS = 24 * 60 * 60_000;
/** Far longer than any command's copy → commit (a memory transaction's deadline is 30 s). */
const MIN_SWEEP_GRACE_MS = 60 * 60_000;
const MAX_SWEEP_PAGE_SIZE = 10_000;

/** Presigned uploads into the caller's temporary storage, its listing, and presigned downloads (decisions §4). */
export const createDocumentService = (ctx: KitContext): DocumentService => {
  const { ports, options } = ctx;
  const later = (ms: number) => new Date(ports.clock.now().getTime() + ms);

  /** One `download-links-issued` entry per client whose documents the request names, listing its keys. */
  const downloadAuditEntries = (
    principal: ManagerPrincipal | CompliancePrincipal,
    keys: readonly string[],
    byKey: ReadonlyMap<string, DocumentRecord>,
  ): CommandAuditEntry[] => {
    const keysByClient = new Map<string, string[]>();
    for (const key of keys) {
      const clientId = byKey.get(key)?.clientId;
      if (clientId !== undefined) keysByClient.set(clientId, [...(keysByClient.get(clientId) ?? []), key]);
    }
    const at = ports.clock.now().toISOString();
    return [...keysByClient].map(([clientId, documents]) => ({
      id: ports.ids.uuid(),
      clientId,
      action: 'download-links-issued',
      actor: auditActorOf(principal),
      at,
      changes: [],
      documents,
    }));
  };

  const sweepPage = (
    after: string | null,
    cutoff: number,
    pageSize: number,
    removed: number,
  ): ResultAsync<number, DomainError> =>
    ports.documentStorage.listPermanent(after, pageSize).andThen((page) => {
      const old = page.documents.filter((document) => document.storedAt.getTime() < cutoff).map((d) => d.key);
      const swept =
        old.length === 0
          ? okAsync(0)
          : ports.documentIndex.findIndexedKeys(old).andThen((indexed) => {
              const referenced = new Set(indexed);
              const orphans = old.filter((key) => !referenced.has(key));
              return orphans.length === 0
                ? okAsync(0)
                : ports.documentStorage.deletePermanent(orphans).map(() => orphans.length);
            });
      return swept.andThen((count) =>
        page.next === null
          ? okAsync(removed + count)
          : sweepPage(page.next, cutoff, pageSize, removed + count),
      );
    });

  /**
   * Presigned downloads of `managerId`'s documents (of `clientId` only, when given), audited under
   * `principal`: nothing is presigned unless every key is one of them.
   */
  const issueDownloads = (
    principal: ManagerPrincipal | CompliancePrincipal,
    scopeOf: () => ResultAsync<{ readonly managerId: string; readonly clientId?: string }, DomainError>,
    body: unknown,
    command: IdempotentCommandContext | undefined,
  ): ResultAsync<BatchDownloadResponse, DomainError> =>
    runCommand(ctx, command, (transaction) => {
      const parsed = parseRequest(batchDownloadRequestSchema, body);
      if (parsed.isErr()) return errAsync(parsed.error);
      const keys = [...new Set(parsed.value.filenames)];
      const expiresAt = later(options.downloadUrlTtlMs);
      return scopeOf().andThen((scope) =>
        ports.documentIndex.findByKeys(scope.managerId, keys).andThen((documents) => {
          const byKey = new Map(
            documents
              .filter((document) => scope.clientId === undefined || document.clientId === scope.clientId)
              .map((document) => [document.key, document]),
          );
          const missing = keys.filter((key) => !byKey.has(key));
          // Nothing is presigned unless every key is one of the caller's documents, and its bytes
          // are still stored (an index can outlive them: memory storage after a restart).
          if (missing.length > 0) return errAsync(documentNotFound(missing));
          return ports.documentStorage.missingPermanent(keys).andThen((gone) => {
            if (gone.length > 0) return errAsync(documentNotFound(gone));
            // No entry, no links: the links are answered only once the entry that records who asked
            // for them is committed (they are made first, so the storage's signer, which may fetch
            // credentials, never runs inside the transaction).
            return ResultAsync.combine(
              parsed.value.filenames.map((key) => {
                const document = byKey.get(key);
                return ports.documentStorage
                  .presignDownload(key, document?.filename ?? key, expiresAt)
                  .map((downloadUrl) => ({ filename: key, downloadUrl, expiresAt: expiresAt.toISOString() }));
              }),
            ).andThen((downloads) =>
              transaction((tx) =>
                tx.audit.append(downloadAuditEntries(principal, keys, byKey)).map(() => ({ downloads })),
              ),
            );
          });
        }),
      );
    });

  return {
    sweepOrphanDocuments: ({ graceMs = DEFAULT_SWEEP_GRACE_MS, pageSize = 1000 } = {}) => {
      const problems: Record<string, string[]> = {};
      // A shorter grace could take the copy of a create still on its way to its commit: a lost document.
      if (!(Number.isFinite(graceMs) && graceMs >= MIN_SWEEP_GRACE_MS)) {
        problems.graceMs = [`Must be a number of milliseconds of at least ${MIN_SWEEP_GRACE_MS} (one hour)`];
      }
      if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_SWEEP_PAGE_SIZE)) {
        problems.pageSize = [`Must be a whole number from 1 to ${MAX_SWEEP_PAGE_SIZE}`];
      }
      if (Object.keys(problems).length > 0) {
        return errAsync(validationFailed('The sweep options are invalid', problems));
      }
      return sweepPage(null, ports.clock.now().getTime() - graceMs, pageSize, 0);
    },
    requestUploadBatch: (principal, body, command) =>
      runCommand(ctx, command, () => {
        const parsed = parseRequest(batchUploadRequestSchema, body);
        if (parsed.isErr()) return errAsync(parsed.error);
        const owner = principalKey(principal);
        const expiresAt = later(options.uploadUrlTtlMs);
        const { filenames } = parsed.value;
        return ports.documentStorage.presignUploads(owner, filenames, expiresAt).map((links) => ({
          uploads: links.map((upload, i) => ({
            filename: filenames[i] ?? '',
            uploadUrl: upload.url,
            method: upload.method,
            headers: { ...upload.headers },
            ...(upload.method === 'POST' ? { fields: { ...upload.fields } } : {}),
            expiresAt: expiresAt.toISOString(),
          })),
        }));
      }),

    listUploads: (principal) => {
      const now = ports.clock.now().getTime();
      return ports.documentStorage.listTemporary(principalKey(principal)).map((files) => ({
        files: files
          // A file past its 24 hours is gone for the caller, even if the storage has not swept it yet.
          .filter((file) => file.uploadedAt.getTime() + options.temporaryFileTtlMs > now)
          .sort(
            (a, b) => b.uploadedAt.getTime() - a.uploadedAt.getTime() || a.filename.localeCompare(b.filename),
          )
          .map((file) => ({
            filename: file.filename,
            size: file.size,
            uploadedAt: file.uploadedAt.toISOString(),
            expiresAt: new Date(file.uploadedAt.getTime() + options.temporaryFileTtlMs).toISOString(),
          })),
      }));
    },

    requestDownloadBatch: (principal, body, command) =>
      issueDownloads(principal, () => okAsync({ managerId: principal.managerId }), body, command),
    requestClientDownloadBatch: (principal, clientId, body, command) =>
      issueDownloads(
        principal,
        () =>
          (isUuid(clientId) ? ports.clients.findById(clientId) : okAsync(null)).andThen((client) =>
            client === null
              ? errAsync(clientNotFound(clientId))
              : okAsync({ managerId: client.managerId, clientId: client.id }),
          ),
        body,
        command,
      ),
  };
};
