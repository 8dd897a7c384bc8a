import { z } from 'zod';
import { documentFilenameSchema } from '../domain/documents.js';
import { crossFieldCheck, distinctFilenamesRule } from '../validation/cross-field-rules.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/parse-request.js';
import { dateTimeSchema } from './client-response.js';

/** Wire shapes of the document routes (decisions §4). Filename rules live in validation/filename.ts. */

export const MAX_FILENAMES_PER_BATCH = 50;

/** Names are NFC-normalized, and must be distinct once normalized: a repeat is reported at its index. */
export const batchUploadRequestSchema = z
  .strictObject({
    filenames: z
      .array(documentFilenameSchema)
      .min(1, 'At least one filename is required')
      .max(MAX_FILENAMES_PER_BATCH, `At most ${MAX_FILENAMES_PER_BATCH} filenames`)
      .check(crossFieldCheck(distinctFilenamesRule, 'array')),
  })
  .meta({ id: 'BatchUploadRequest', examples: [{ filenames: ['passport.pdf'] }] });
export type BatchUploadRequest = z.infer<typeof batchUploadRequestSchema>;

export const batchUploadResponseSchema = z
  .object({
    uploads: z.array(
      z.object({
        filename: z.string(),
        uploadUrl: z.string(),
        /**
         * PUT: send the file as the body, with `headers`. POST (a storage that bounds the size
         * itself, decisions §4): send multipart/form-data, every field of `fields` first, then the
         * file as the field `file`.
         */
        method: z.enum(['PUT', 'POST']),
        headers: z.record(z.string(), z.string()),
        fields: z.record(z.string(), z.string()).optional(),
        expiresAt: dateTimeSchema,
      }),
    ),
  })
  .meta({ id: 'BatchUploadResponse' });
export type BatchUploadResponse = z.infer<typeof batchUploadResponseSchema>;

export const temporaryFilesResponseSchema = z
  .object({
    files: z.array(
      z.object({
        filename: z.string(),
        size: z.number().int(),
        uploadedAt: dateTimeSchema,
        expiresAt: dateTimeSchema,
      }),
    ),
  })
  .meta({ id: 'TemporaryFiles' });
export type TemporaryFilesResponse = z.infer<typeof temporaryFilesResponseSchema>;

export const batchDownloadRequestSchema = z
  .strictObject({
    filenames: z
      .array(z.string().min(1).max(1000).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE))
      .min(1)
      .max(MAX_FILENAMES_PER_BATCH),
  })
  .meta({
    id: 'BatchDownloadRequest',
    examples: [{ filenames: ['0b9e3c52-5d3a-4f6e-9a41-7c2d8e1f6a90_passport.pdf'] }],
  });
export type BatchDownloadRequest = z.infer<typeof batchDownloadRequestSchema>;

export const batchDownloadResponseSchema = z
  .object({
    downloads: z.array(
      z.object({ filename: z.string(), downloadUrl: z.string(), expiresAt: dateTimeSchema }),
    ),
  })
  .meta({ id: 'BatchDownloadResponse' });
export type BatchDownloadResponse = z.infer<typeof batchDownloadResponseSchema>;
