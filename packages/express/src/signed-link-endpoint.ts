import type { SignedLinkRejected, StorageUnavailable } from '@onboarding-kit/core/adapter';
import type { Result, ResultAsync } from 'neverthrow';

/** Whose temporary storage an upload link writes, and which file. */
export type UploadLinkTarget = { readonly owner: string; readonly filename: string };

/**
 * What `createSignedLinkRouter` serves: a storage that serves its own presigned links (the
 * in-memory storage's sealed, expiring tokens), so uploads and downloads work with curl. Only the
 * binding and such a storage meet here; core knows nothing of it (memory's `signedLinks` has this
 * shape without importing it).
 */
export interface SignedLinkEndpoint {
  /**
   * Checks an upload link, and that its owner may store one more file, before any byte of the body
   * is read: an unauthenticated caller must not make the server buffer anything. Answers the
   * link's owner and filename, under which the bytes in flight are counted.
   */
  verifyUpload(token: string): Result<UploadLinkTarget, SignedLinkRejected>;
  /** Stores the body of a PUT to an upload link (verifying the link again). */
  acceptUpload(token: string, body: Uint8Array): ResultAsync<void, SignedLinkRejected | StorageUnavailable>;
  /** The bytes and the attachment name behind a download link. */
  openDownload(
    token: string,
  ): ResultAsync<{ body: Uint8Array; filename: string }, SignedLinkRejected | StorageUnavailable>;
  /** Largest upload body the endpoint accepts, in bytes. */
  readonly maxUploadBytes: number;
}
