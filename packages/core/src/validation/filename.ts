import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { hasUnstorableCharacter } from './storable-text.js';

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
