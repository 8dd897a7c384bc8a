import { z } from 'zod';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { dateTimeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** What an audit entry records (decisions §10): a change of a client, or download links issued. */
export const auditActions = [
  'create',
  'resubmit',
  'approve',
  'request-resubmission',
  'terms-signed',
  'delete',
  'redact',
  'screening-resolution',
  /** A screening job (or monitoring) wrote a result, a failure or new hits on the client, as `system`. */
  'screening-result',
  'download-links-issued',
  'assign',
  'release',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditActorKinds = ['manager', 'client', 'compliance', 'system'] as const;

/** Who made the change: the principal's identity (manager, client or compliance id), or `system` for jobs. */
export const auditActorSchema = z.object({ kind: z.enum(auditActorKinds), id: z.string() });
export type AuditActor = z.infer<typeof auditActorSchema>;

/** One payload field that differs, at its JSON path (as in `parameterErrors`); null where it was or is absent. */
export const auditChangeSchema = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    clientId: z.uuid(),
    action: auditActionSchema,
    actor: auditActorSchema,
    /** The request id the host gave the request (`X-Request-Id`), null for in-process calls without one. */
    requestId: z.string().nullable(),
    at: dateTimeSchema,
    changes: z.array(auditChangeSchema),
    /** The document keys whose download links were issued (`download-links-issued` only). */
    documents: z.array(z.string()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Query of `GET /clients/{clientId}/audit`: a page size of 1..100 (default 20), an opaque cursor. */
export const auditListQuerySchema = z.strictObject({
  limit: pageSizeSchema,
  cursor: cursorParameterSchema.optional(),
});
export type AuditListQueryInput = z.input<typeof auditListQuerySchema>;

export const auditListResponseSchema = z
  .object({ data: z.array(auditEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditTrail' });
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/**
 * Why a link of a client's audit chain does not hold: `CHAIN_BROKEN` (an entry removed, inserted or
 * moved: its sequence or previous hash is not the entry's before it), `ENTRY_ALTERED` (a field but
 * `changes` differs from what was hashed), `CHANGES_ALTERED` (the changes differ from their digest,
 * or hold redacted values on a client that was not redacted), `BACKDATED` (dated more than five
 * minutes before the entry before it). With sealing keys: `UNSEALED` (no seal, after the anchor
 * when one is given), `UNKNOWN_SEAL_KEY` (sealed with a key id the kit was not given),
 * `SEAL_INVALID` (the seal is not the key's HMAC of the entry's hash: made without the key). With
 * an anchor: `ANCHOR_MISMATCH` (the entry at the anchor's sequence has another hash: it or one
 * before it was rewritten, or the trail replaced), `TAIL_MISSING` (the trail ends before the
 * anchor's sequence: entries were cut; `entryId` is null).
 */
export const auditChainBreakReasons = [
  'CHAIN_BROKEN',
  'ENTRY_ALTERED',
  'CHANGES_ALTERED',
  'BACKDATED',
  'UNSEALED',
  'UNKNOWN_SEAL_KEY',
  'SEAL_INVALID',
  'ANCHOR_MISMATCH',
  'TAIL_MISSING',
] as const;
export type AuditChainBreakReason = (typeof auditChainBreakReasons)[number];

const auditHashSchema = z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lower-case hex digits' });

/**
 * A trail's head: the sequence and hash of its last entry. Kept outside the database (a log, a
 * write-once bucket), it is an anchor a later verification checks the trail against.
 */
export const auditAnchorSchema = z
  .object({ sequence: z.number().int().positive(), hash: z.string() })
  .meta({ id: 'AuditAnchor' });
export type AuditAnchor = z.infer<typeof auditAnchorSchema>;

/** Query of `GET /clients/{clientId}/audit/verification`: an anchor kept earlier, both parts or neither. */
export const auditVerificationQuerySchema = z
  .strictObject({
    anchorSequence: z
      .string()
      .regex(/^[1-9][0-9]{0,8}$/, { error: 'must be a whole number from 1' })
      .transform(Number)
      .optional(),
    anchorHash: auditHashSchema.optional(),
  })
  .refine(({ anchorSequence, anchorHash }) => (anchorSequence === undefined) === (anchorHash === undefined), {
    error: 'anchorSequence and anchorHash go together',
    path: ['anchorHash'],
  });
export type AuditVerificationQueryInput = z.input<typeof auditVerificationQuerySchema>;

/** Answer of `GET /compliance/v1/clients/{clientId}/audit/verification`. */
export const auditVerificationSchema = z
  .object({
    clientId: z.uuid(),
    /** True when every entry's link holds, from the first to the last (and its seal and the anchor, when checked). */
    verified: z.boolean(),
    /** How many entries were checked: all of them when verified, else up to the first broken one. */
    checkedEntries: z.number().int().nonnegative(),
    /** The hash of the client's last entry when verified (null without entries or when not verified). */
    lastHash: z.string().nullable(),
    /** The trail's head when verified (null without entries or when not verified): store it elsewhere as an anchor. */
    head: auditAnchorSchema.nullable(),
    /** Whether each entry's seal was checked: the kit was given sealing keys. */
    sealsChecked: z.boolean(),
    /** The anchor checked, as given; null without one. */
    anchor: auditAnchorSchema.nullable(),
    /** The first entry whose link does not hold; null when verified. */
    firstBrokenLink: z
      .object({
        /** The entry (null for `TAIL_MISSING`: the entry the anchor names is gone). */
        entryId: z.uuid().nullable(),
        /** The entry's place in the client's chain (1 for the first). */
        sequence: z.number().int().positive(),
        reason: z.enum(auditChainBreakReasons),
      })
      .nullable(),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof auditVerificationSchema>;
