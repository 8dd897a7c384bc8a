import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

/**
 * The filename rule of decisions §4, shared by the upload request and every document array of a
 * payload: after NFC normalization, 1..255 bytes of UTF-8, no `/`, `\`, control character or NUL,
 * not `.` or `..`, no leading or trailing space.
 */
export const MAX_FILENAME_BYTES = 255;

// C0 controls (NUL included), DEL and C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

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
  if (CONTROL_CHARACTER.test(normalized)) return err('Filename must not contain control characters');
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
      'A filename: 1..255 bytes of UTF-8 after NFC normalization, without /, \\ or control characters, not . or .., without leading or trailing space',
  });
