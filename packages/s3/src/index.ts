export {
  createS3DocumentStorage,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_PERMANENT_PREFIX,
  DEFAULT_TEMPORARY_PREFIX,
  type S3DocumentStorageOptions,
} from './s3-document-storage.js';
export {
  ensureTemporaryExpiry,
  type TemporaryExpiryOptions,
  temporaryExpiryRuleId,
} from './temporary-expiry.js';
