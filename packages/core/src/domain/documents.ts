import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { hasUnstorableCharacter, toJsonPath } from '../validation/parse-request.js';

// Documents: what a stored document and a temporary upload are, the rules a file name follows, and
// how a payload names its documents (the references a create or resubmit promotes).

/** A document promoted to permanent storage, indexed by its key `<uuid>_<filename>`. */
export type DocumentRecord = {
  readonly key: string;
  readonly clientId: string;
  readonly managerId: string;
  /** The name it was uploaded under: downloads are attachments with this name. */
  readonly filename: string;
  readonly size: number;
  readonly storedAt: string;
  /** The upload it was made from (`uploadNameOf`): at most one document per upload. */
  readonly upload?: string;
};

/** A file in a caller's temporary storage, as the storage reports it. */
export type TemporaryFile = {
  readonly filename: string;
  readonly size: number;
  readonly uploadedAt: Date;
  /**
   * Names this upload of the file (S3: its ETag; memory: an id per upload). A re-upload under the
   * same name has another version, so a promotion copies and deletes exactly the file it checked.
   */
  readonly version: string;
};

/**
 * The name of one upload of a temporary file, which claims and document rows carry: a SHA-256 of
 * the owner, the filename, the storage's version and the upload time (a digest, so the index holds
 * no filename beyond the document's own). The upload time tells apart two uploads of the same bytes
 * (S3 gives them one ETag), so a file uploaded again can be used again.
 */
export const uploadNameOf = (
  hashing: { sha256Hex(text: string): string },
  owner: string,
  file: TemporaryFile,
): string =>
  hashing.sha256Hex(JSON.stringify([owner, file.filename, file.version, file.uploadedAt.toISOString()]));

/** A document key: a random UUID v4, an underscore, the original filename. */
export const documentKeyFor = (uuid: string, filename: string): string => `${uuid}_${filename}`;

/**
 * Every document field of the onboarding payloads ends in `Documents` (`idDocuments`,
 * `supportingDocuments`, `thirdPartyBankAccountOwnerDocuments`, …): one walk finds them all,
 * wherever they sit, so a new document field needs no new code here.
 */
const isDocumentField = (key: string) => key.endsWith('Documents');

export type DocumentReference = { readonly path: string; readonly filename: string };

/** Each filename a payload names, with the JSON path of its array entry. */
export const collectDocumentReferences = (payload: unknown): DocumentReference[] => {
  const references: DocumentReference[] = [];
  // The path of the value being walked, as segments: written out only for a reference found, since
  // most of a payload holds none (this runs on every create and resubmission).
  const segments: PropertyKey[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        segments.push(index);
        walk(value[index]);
        segments.pop();
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      const child: unknown = (value as Record<string, unknown>)[key];
      segments.push(key);
      if (isDocumentField(key) && Array.isArray(child)) {
        for (let index = 0; index < child.length; index += 1) {
          const filename: unknown = child[index];
          if (typeof filename === 'string')
            references.push({ path: toJsonPath([...segments, index]), filename });
        }
      } else {
        walk(child);
      }
      segments.pop();
    }
  };
  walk(payload);
  return references;
};

/** Sets `key` on `target` as data, an own `__proto__` key included (plain assignment would set the prototype). */
const setMember = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
};

/**
 * `payload` with every document filename replaced by its permanent key. Only what leads to a
 * document filename is new (the objects and arrays on the way, and the document arrays themselves);
 * every other part is `payload`'s own, shared rather than copied: a create's payload is mostly
 * profile, accounts and wallets, and this runs on every create and resubmission. `payload` itself
 * is never changed.
 */
export const replaceDocumentReferences = <T>(payload: T, keyOf: (filename: string) => string): T => {
  const replaced = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index += 1) {
        const item: unknown = value[index];
        const next = replaced(item);
        if (next !== item) {
          copy ??= value.slice();
          copy[index] = next;
        }
      }
      return copy ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const next =
        isDocumentField(key) && Array.isArray(child)
          ? child.some((filename: unknown) => typeof filename === 'string')
            ? child.map((filename: unknown) => (typeof filename === 'string' ? keyOf(filename) : filename))
            : child
          : replaced(child);
      if (next !== child) {
        // A spread defines its members, so an own `__proto__` key stays data here too.
        copy ??= { ...record };
        setMember(copy, key, next);
      }
    }
    return copy ?? value;
  };
  return replaced(payload) as T;
};

/**
 * The filename rule of decisions §4, shared by the upload request and every document array of a
 * payload: after NFC normalization, 1..255 bytes of UTF-8, no `/`, `\`, control character or NUL,
 * no invisible or direction-changing character, not `.` or `..`, no leading or trailing space.
 */
export const MAX_FILENAME_BYTES = 255;

// C0 controls (NUL included), DEL and C1 controls (Unicode category Cc).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Characters that change how a name reads without being seen, so a listed name is not the name a
 * person sees (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`): format characters (Cf: bidi
 * embeddings, overrides and isolates, zero-width space and joiners, BOM, soft hyphen), the line and
 * paragraph separators U+2028/U+2029, and private-use characters (Co), which render differently on
 * every system. Unassigned code points are not refused: which ones are unassigned changes with the
 * Unicode version of the runtime, and a name must not become invalid when Node is upgraded.
 */
const INVISIBLE_OR_DIRECTIONAL = /[\p{Cf}\p{Co}\u2028\u2029]/u;

const utf8 = new TextEncoder();

/** The NFC form of a valid name, or the reason it is refused. */
export const checkFilename = (name: string): Result<string, string> => {
  const normalized = name.normalize('NFC');
  if (normalized.length === 0) return err('Filename must not be empty');
  if (utf8.encode(normalized).length > MAX_FILENAME_BYTES) {
    return err(`Filename must be at most ${MAX_FILENAME_BYTES} bytes of UTF-8`);
  }
  if (normalized.includes('/') || normalized.includes('\\')) {
    return err('Filename must not contain / or \\');
  }
  if (hasUnstorableCharacter(normalized)) {
    return err('Filename must not contain NUL or unpaired surrogate characters');
  }
  if (CONTROL_CHARACTER.test(normalized)) return err('Filename must not contain control characters');
  if (INVISIBLE_OR_DIRECTIONAL.test(normalized)) {
    return err(
      'Filename must not contain invisible or direction-changing characters (bidi controls, zero-width characters, BOM, line or paragraph separators, private-use characters)',
    );
  }
  if (normalized === '.' || normalized === '..') return err('Filename must not be . or ..');
  if (normalized.startsWith(' ') || normalized.endsWith(' ')) {
    return err('Filename must not start or end with a space');
  }
  return ok(normalized);
};

/** A filename, NFC-normalized on success. */
export const documentFilenameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') })
  .normalize('NFC')
  .superRefine((name, context) => {
    const checked = checkFilename(name);
    if (checked.isErr()) context.addIssue({ code: 'custom', message: checked.error });
  })
  .meta({
    description:
      'A filename: 1..255 bytes of UTF-8 after NFC normalization, without /, \\, control, format (bidi, zero-width, BOM), line/paragraph separator or private-use characters, not . or .., without leading or trailing space',
  });
