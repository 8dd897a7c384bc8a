import { err, errAsync, ok, type Result, ResultAsync } from 'neverthrow';
import {
  collectDocumentReferences,
  type DocumentRecord,
  type DocumentReference,
  documentKeyFor,
  replaceDocumentReferences,
  type TemporaryFile,
  uploadNameOf,
} from '../domain/documents.js';
import {
  type DomainError,
  type ParameterErrors,
  type TemporaryFilesChanged,
  validationFailed,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { PromotionItem } from '../ports/document-storage.js';
import { combineBounded } from '../results/bounded-concurrency.js';

/**
 * Decisions §4: every filename a payload names must be in the caller's temporary storage, not
 * expired, not empty and not over the size limit; then the command claims the uploads (one upload,
 * one command), each distinct file is copied once to `<uuid>_<filename>`, the command commits, and only then do the temporary files go. When the
 * commit fails the copies are removed and the temporary files stay, so nothing is lost; when its
 * outcome is unknown (the connection dropped during COMMIT) nothing is removed at all.
 */

const MIB = 1024 * 1024;

/**
 * Distinct files one payload may name. Each is checked (a storage round trip) and copied: without a
 * bound, one entity payload of 50 representatives could name about 22,850 files. 200 leaves room
 * for every real case (a company's documents plus a few per representative, account and wallet).
 */
export const MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD = 200;

/** Files checked at once: a payload's checks never open more storage requests than this. */
const STAT_CONCURRENCY = 16;

/** The problem with one named file, or null when it can be used. */
const problemWith = (ctx: KitContext, filename: string, file: TemporaryFile | null): string | null => {
  const { temporaryFileTtlMs, maxDocumentBytes } = ctx.options;
  if (file === null || file.uploadedAt.getTime() + temporaryFileTtlMs <= ctx.ports.clock.now().getTime()) {
    return `File "${filename}" is not in your temporary storage: upload it first`;
  }
  if (file.size === 0) return `File "${filename}" is empty (0 bytes)`;
  if (file.size > maxDocumentBytes) {
    const inMib = maxDocumentBytes >= MIB ? ` (${Number((maxDocumentBytes / MIB).toFixed(2))} MiB)` : '';
    return `File "${filename}" is ${file.size} bytes, over the limit of ${maxDocumentBytes} bytes${inMib}`;
  }
  return null;
};

/** A refusal reported at every field path that names a file with a problem (`problemOf` gives it). */
const refusalAtReferences = (
  references: readonly DocumentReference[],
  reason: string,
  problemOf: (filename: string) => string | undefined,
): DomainError => {
  const parameterErrors: ParameterErrors = {};
  for (const { path, filename } of references) {
    const problem = problemOf(filename);
    if (problem !== undefined) parameterErrors[path] = [problem];
  }
  return validationFailed(reason, parameterErrors);
};

/** Checks every referenced file; resolves to each distinct usable file by name. */
const checkReferencedFiles = (
  ctx: KitContext,
  owner: string,
  references: readonly DocumentReference[],
): ResultAsync<ReadonlyMap<string, TemporaryFile>, DomainError> => {
  const filenames = [...new Set(references.map((reference) => reference.filename))];
  if (filenames.length > MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD) {
    // Reported where the excess starts: every reference to a name past the bound.
    const beyond = new Set(filenames.slice(MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD));
    return errAsync(
      refusalAtReferences(references, 'The payload names too many documents', (filename) =>
        beyond.has(filename)
          ? `A payload may name at most ${MAX_DISTINCT_DOCUMENTS_PER_PAYLOAD} distinct files`
          : undefined,
      ),
    );
  }
  return combineBounded(filenames, STAT_CONCURRENCY, (filename) =>
    ctx.ports.documentStorage.statTemporary(owner, filename).andThen((file) => ok({ filename, file })),
  ).andThen((checks) => {
    const problems = new Map<string, string>();
    const usable = new Map<string, TemporaryFile>();
    for (const { filename, file } of checks) {
      const problem = problemWith(ctx, filename, file);
      if (problem !== null) problems.set(filename, problem);
      else if (file !== null) usable.set(filename, file);
    }
    if (problems.size === 0) return ok(usable);
    return err(
      refusalAtReferences(references, 'Some documents cannot be used', (filename) => problems.get(filename)),
    );
  });
};

/** What a command commits along with its client: the payload with keys, and the index rows. */
export type PromotedDocuments<P> = {
  readonly payload: P;
  readonly documentRecords: (clientId: string, managerId: string) => DocumentRecord[];
};

/**
 * How long a claim on an upload holds when its holder neither commits nor releases it (a crashed
 * process): as long as a request may keep its idempotency key (its lock renewed for at most
 * `idempotencyLockMaxRenewalMs`, then expiring one `idempotencyLockTtlMs` later).
 */
const claimTtlMs = (ctx: KitContext): number =>
  ctx.options.idempotencyLockMaxRenewalMs + ctx.options.idempotencyLockTtlMs;

/**
 * Runs `commit` between the copy and the delete of the payload's documents. `commit` receives the
 * payload with filenames replaced by document keys, and the index rows to write with the client.
 *
 * Before any copy, the command claims the uploads it names in the document index: one upload is
 * used by at most one command. A claim refused (another command holds it, or made a document from
 * it) refuses the command at those fields, with nothing copied. Any failure after the claim releases
 * it, so a corrected retry can use the files at once; a success leaves it to expire, the document
 * rows keeping the uploads used from then on.
 */
export const promoteDocumentsAround = <P, T>(
  ctx: KitContext,
  owner: string,
  payload: P,
  commit: (promoted: PromotedDocuments<P>) => ResultAsync<T, DomainError>,
): ResultAsync<T, DomainError> => {
  const references = collectDocumentReferences(payload);
  return checkReferencedFiles(ctx, owner, references).andThen((files) => {
    if (files.size === 0) return commit({ payload, documentRecords: () => [] });
    const { documentStorage: storage, documentIndex: index, clock, ids } = ctx.ports;
    const promoted = [...files.values()].map((file) => ({
      item: {
        owner,
        filename: file.filename,
        key: documentKeyFor(ids.uuid(), file.filename),
        version: file.version,
      } satisfies PromotionItem,
      upload: uploadNameOf(ctx.hashing, owner, file),
      size: file.size,
    }));
    const items = promoted.map(({ item }) => item);
    const changedSinceChecked = (changed: TemporaryFilesChanged): DomainError => {
      const names = new Set(changed.filenames);
      return refusalAtReferences(
        references,
        'Some documents changed while they were being used',
        (filename) =>
          names.has(filename)
            ? `File "${filename}" was uploaded again or removed while this request ran: send the request again`
            : undefined,
      );
    };
    const usedByAnother = (refusedUploads: readonly string[]): DomainError => {
      const refused = new Set(refusedUploads);
      const names = new Set(
        promoted.filter(({ upload }) => refused.has(upload)).map(({ item }) => item.filename),
      );
      return refusalAtReferences(references, 'Some documents are used by another request', (filename) =>
        names.has(filename)
          ? `File "${filename}" is used by another request: upload it again to use it here`
          : undefined,
      );
    };
    const keyByFilename = new Map(items.map((item) => [item.filename, item.key]));
    const now = clock.now();
    const storedAt = now.toISOString();
    const removeCopiesThenFail = (error: DomainError): ResultAsync<never, DomainError> =>
      // A commit that may have been kept may reference the copies: they stay (the orphan sweep
      // removes them if it was not), and so do the temporary files.
      error.type === 'CommitOutcomeUnknown'
        ? errAsync(error)
        : recoverErr(storage.deletePermanent(items.map((item) => item.key)), () => ok(undefined)).andThen(
            () => errAsync(error),
          );
    const holder = ids.uuid();
    const uploads = promoted.map(({ upload }) => upload);
    // Released after any failure, even an unknown commit outcome: a commit that was kept wrote the
    // document rows, which keep the uploads used without the claim.
    const releaseThenFail = (error: DomainError): ResultAsync<never, DomainError> =>
      recoverErr(index.releaseUploads(holder, uploads), () => ok(undefined)).andThen(() => errAsync(error));

    const copyAndCommit = (): ResultAsync<T, DomainError> =>
      // The port removes its own copies on failure; removing them again covers a removal that failed.
      recoverErr(storage.copyToPermanent(items), (error) =>
        removeCopiesThenFail(error.type === 'TemporaryFilesChanged' ? changedSinceChecked(error) : error),
      ).andThen(() =>
        recoverErr(
          commit({
            payload: replaceDocumentReferences(
              payload,
              (filename) => keyByFilename.get(filename) ?? filename,
            ),
            documentRecords: (clientId, managerId) =>
              promoted.map(({ item, upload, size }) => ({
                key: item.key,
                clientId,
                managerId,
                filename: item.filename,
                size,
                storedAt,
                upload,
              })),
          }),
          removeCopiesThenFail,
        ),
      );

    return recoverErr(
      index
        .claimUploads({
          holder,
          uploads,
          now,
          expiresAt: new Date(now.getTime() + claimTtlMs(ctx)),
        })
        .andThen((refused) => (refused.length === 0 ? copyAndCommit() : errAsync(usedByAnother(refused)))),
      releaseThenFail,
    ).andThen((value) =>
      // The client is committed: a failed delete only leaves temporary files to expire in 24 h.
      // Only the versions used: a file uploaded again meanwhile under the same name stays.
      recoverErr(
        storage.deleteTemporary(
          owner,
          items.map(({ filename, version }) => ({ filename, version })),
        ),
        () => ok(undefined),
      ).andThen(() => ok(value)),
    );
  });
};

/**
 * `result.orElse(recover)` in one `then`: an Ok passes through as it is, an Err becomes what
 * `recover` answers. neverthrow's `orElse` (like its `map` and `mapErr`) runs every result, Ok
 * included, through a generator-based awaiter: more promises and objects on each request's path.
 * Use it where the Ok is the common way through.
 */
export const recoverErr = <T, E, U, F>(
  result: ResultAsync<T, E>,
  recover: (error: E) => ResultAsync<U, F> | Result<U, F>,
): ResultAsync<T | U, F> =>
  new ResultAsync<T | U, F>(
    // ResultAsync's `then` is its inner promise's `then`, typed PromiseLike: it returns a Promise.
    result.then((settled): Result<T, F> | Result<U, F> | PromiseLike<Result<U, F>> =>
      settled.isOk() ? ok(settled.value) : recover(settled.error),
    ) as Promise<Result<T | U, F>>,
  );
