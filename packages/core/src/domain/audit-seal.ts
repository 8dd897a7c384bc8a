import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { err, ok, type Result } from 'neverthrow';

/**
 * An entry's seal (docs/data-protection.md, "Sealed entries"): an HMAC-SHA256 of its chain hash
 * under a key of the host's that the database never holds, so a role with only database access
 * can add entries that chain but not entries that verify. The hash covers the whole entry (the
 * changes through their digest), so redaction keeps the seal valid.
 */
export type AuditSeal = {
  /** The id of the key it was made with (`AuditSealingKeys.keys`). */
  readonly keyId: string;
  /** HMAC-SHA256 as lower-case hex. */
  readonly value: string;
};

/** Seals an entry's chain hash; the store calls it as it appends (`AuditLog.append`). */
export type AuditSealer = (hash: string) => AuditSeal;

/**
 * The host's sealing keys (`createOnboardingKit({ auditSealing })`): every key whose seals verify,
 * by id, and the one new entries are sealed with. Rotation: add the new key, seal with it, keep the
 * old one as long as entries sealed with it are verified.
 */
export type AuditSealingKeys = {
  /** Secrets by key id: at least 32 bytes of UTF-8 each (e.g. `openssl rand -hex 32`). */
  readonly keys: Readonly<Record<string, string>>;
  /** The id of the key new entries are sealed with: one of `keys`. */
  readonly sealWith: string;
};

/** Why an entry's seal does not hold. */
export type AuditSealBreakReason = 'UNSEALED' | 'UNKNOWN_SEAL_KEY' | 'SEAL_INVALID';

export const MIN_AUDIT_SEAL_KEY_BYTES = 32;
const keyIdShape = /^[A-Za-z0-9._-]{1,64}$/;

/** The keys as given, or why they cannot seal (a host's configuration error). */
export const checkAuditSealingKeys = (sealing: AuditSealingKeys): Result<AuditSealingKeys, string> => {
  const ids = Object.keys(sealing.keys);
  const badId = ids.find((id) => !keyIdShape.test(id));
  if (badId !== undefined)
    return err(`auditSealing: key id ${JSON.stringify(badId)} must match ${keyIdShape}`);
  const short = ids.find((id) => utf8ToBytes(sealing.keys[id] ?? '').length < MIN_AUDIT_SEAL_KEY_BYTES);
  if (short !== undefined) {
    return err(
      `auditSealing: key ${JSON.stringify(short)} must be at least ${MIN_AUDIT_SEAL_KEY_BYTES} bytes`,
    );
  }
  if (!Object.hasOwn(sealing.keys, sealing.sealWith)) {
    return err(`auditSealing: sealWith ${JSON.stringify(sealing.sealWith)} names no key of keys`);
  }
  return ok(sealing);
};

/** The seal's value: HMAC-SHA256 under the secret of a versioned text naming the key id and the hash. */
export const auditSealValue = (secret: string, keyId: string, hash: string): string =>
  bytesToHex(
    hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`onboarding-kit audit seal v1\n${keyId}\n${hash}`)),
  );

/** Seals with `sealWith` (keys already checked). */
export const auditSealerOf = ({ keys, sealWith }: AuditSealingKeys): AuditSealer => {
  const secret = keys[sealWith] ?? '';
  return (hash) => ({ keyId: sealWith, value: auditSealValue(secret, sealWith, hash) });
};

/** Same text, compared in a time that does not depend on where they differ. */
const sameText = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length;
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    difference |= (a.charCodeAt(index) | 0) ^ (b.charCodeAt(index) | 0);
  }
  return difference === 0;
};

/** Why the seal of the entry whose chain hash is `hash` does not hold, or null when it does. */
export const auditSealBreak = (
  { keys }: AuditSealingKeys,
  seal: AuditSeal | null,
  hash: string,
): AuditSealBreakReason | null => {
  if (seal === null) return 'UNSEALED';
  if (!Object.hasOwn(keys, seal.keyId)) return 'UNKNOWN_SEAL_KEY';
  return sameText(auditSealValue(keys[seal.keyId] ?? '', seal.keyId, hash), seal.value)
    ? null
    : 'SEAL_INVALID';
};
