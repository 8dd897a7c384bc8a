import {
  GetBucketLifecycleConfigurationCommand,
  type LifecycleRule,
  PutBucketLifecycleConfigurationCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type StorageUnavailable, storageUnavailable } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { DEFAULT_PERMANENT_PREFIX, DEFAULT_TEMPORARY_PREFIX } from './s3-document-storage.js';
import { checkS3Prefixes } from './s3-object-keys.js';

export type TemporaryExpiryOptions = {
  readonly client: S3Client;
  readonly bucket: string;
  /** The same prefix given to `createS3DocumentStorage` (default `tmp/`). */
  readonly temporaryPrefix?: string;
  /**
   * The same prefix given to `createS3DocumentStorage` (default `documents/`): checked to lie
   * outside the expiring folder, so the rule can never take a promoted document.
   */
  readonly permanentPrefix?: string;
};

/** The rule's ID names its prefix, so two kits sharing a bucket keep one rule each. */
export const temporaryExpiryRuleId = (temporaryPrefix: string): string =>
  `onboarding-kit-temporary-expiry:${temporaryPrefix}`;

const hasNoLifecycle = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { name?: unknown }).name === 'NoSuchLifecycleConfiguration';

/**
 * Puts the lifecycle rule that empties the temporary area: objects expire 1 day after upload (S3
 * rounds to the next midnight UTC, so removal happens within 48 h; the kit itself hides files older
 * than 24 h), on a versioned bucket noncurrent versions 1 day after they became noncurrent, and
 * incomplete multipart uploads are aborted after 1 day. Other rules of the bucket are
 * kept: S3 replaces the whole configuration on every put, so the current one is read and merged.
 * Throws a TypeError, before any call, when the prefixes are not two separate folders (`checkS3Prefixes`).
 */
export const ensureTemporaryExpiry = (
  options: TemporaryExpiryOptions,
): ResultAsync<LifecycleRule, StorageUnavailable> => {
  const { client, bucket } = options;
  const prefix = options.temporaryPrefix ?? DEFAULT_TEMPORARY_PREFIX;
  checkS3Prefixes(prefix, options.permanentPrefix ?? DEFAULT_PERMANENT_PREFIX);
  const rule: LifecycleRule = {
    ID: temporaryExpiryRuleId(prefix),
    Filter: { Prefix: prefix },
    Status: 'Enabled',
    Expiration: { Days: 1 },
    // A versioned bucket keeps a replaced or expired upload as a noncurrent version: gone a day later.
    NoncurrentVersionExpiration: { NoncurrentDays: 1 },
    AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
  };
  return ResultAsync.fromPromise(
    (async () => {
      const current = await client
        .send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }))
        .then((output) => output.Rules ?? [])
        .catch((error: unknown) => {
          if (hasNoLifecycle(error)) return [];
          throw error;
        });
      const others = current.filter((existing) => existing.ID !== rule.ID);
      await client.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket: bucket,
          LifecycleConfiguration: { Rules: [...others, rule] },
        }),
      );
      return rule;
    })(),
    storageUnavailable('s3'),
  );
};
