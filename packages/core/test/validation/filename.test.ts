import { describe, expect, it } from 'vitest';
import { checkFilename, documentFilenameSchema, MAX_FILENAME_BYTES } from '../../src/domain/documents.js';
import { batchUploadRequestSchema } from '../../src/schemas/documents.js';
import { parameterErrorsOf, parsedValueOf } from './parameter-errors-of.js';

const decomposedE = 'e\u0301';
const composedE = '\u00e9';

describe('checkFilename', () => {
  it.each([
    'passport.pdf',
    'Relevé de compte.pdf',
    '.hidden',
    '...',
    'a b.png',
    '身分証明書.jpg',
    'emoji 🎉 (paired surrogates).png',
    'עברית.pdf',
    'نام.pdf',
    'x'.repeat(MAX_FILENAME_BYTES),
  ])('accepts %j', (name) => {
    expect(checkFilename(name)._unsafeUnwrap()).toBe(name.normalize('NFC'));
  });

  it.each([
    ['', 'must not be empty'],
    ['x'.repeat(MAX_FILENAME_BYTES + 1), 'at most 255 bytes'],
    ['é'.repeat(128), 'at most 255 bytes'],
    ['dir/file.pdf', 'must not contain /'],
    ['dir\\file.pdf', 'must not contain /'],
    ['bad\u0000name.pdf', 'NUL or unpaired surrogate'],
    ['lone\ud800.pdf', 'NUL or unpaired surrogate'],
    ['\udfffx.pdf', 'NUL or unpaired surrogate'],
    ['invoice\u202efdp.exe', 'direction-changing'],
    ['a\u202ab.pdf', 'direction-changing'],
    ['a\u2066b\u2069.pdf', 'direction-changing'],
    ['zero\u200bwidth.pdf', 'invisible'],
    ['zw\u200cnj.pdf', 'invisible'],
    ['zw\u200dj.pdf', 'invisible'],
    ['\ufeffbom.pdf', 'invisible'],
    ['soft\u00adhyphen.pdf', 'invisible'],
    ['line\u2028sep.pdf', 'invisible'],
    ['para\u2029sep.pdf', 'invisible'],
    ['private\ue000use.pdf', 'private-use'],
    ['tab\tname.pdf', 'control characters'],
    ['line\nbreak.pdf', 'control characters'],
    ['del\u007f.pdf', 'control characters'],
    ['c1\u0085.pdf', 'control characters'],
    ['.', 'must not be . or ..'],
    ['..', 'must not be . or ..'],
    [' leading.pdf', 'start or end with a space'],
    ['trailing.pdf ', 'start or end with a space'],
  ])('refuses %j (%s)', (name, message) => {
    expect(checkFilename(name)._unsafeUnwrapErr()).toContain(message);
  });

  it('counts bytes of the NFC form: 127 decomposed é (254 chars) compose to 254 bytes and pass', () => {
    const name = `${decomposedE.repeat(127)}x`;
    expect(name.length).toBe(255);
    expect(checkFilename(name)._unsafeUnwrap()).toBe(`${composedE.repeat(127)}x`);
  });

  it('the schema returns the NFC form and reports the reason', () => {
    expect(parsedValueOf(documentFilenameSchema, `caf${decomposedE}.pdf`)).toBe(`caf${composedE}.pdf`);
    expect(parameterErrorsOf(documentFilenameSchema, '../etc/passwd')).toEqual({
      $: ['Filename must not contain / or \\'],
    });
  });
});

describe('batch upload request', () => {
  it('accepts 1..50 distinct names and returns them NFC-normalized', () => {
    const parsed = parsedValueOf(batchUploadRequestSchema, {
      filenames: [`r${decomposedE}sum${decomposedE}.pdf`, 'id.png'],
    });
    expect(parsed.filenames).toEqual([`r${composedE}sum${composedE}.pdf`, 'id.png']);
  });

  it('reports a bad name at filenames[i]', () => {
    expect(parameterErrorsOf(batchUploadRequestSchema, { filenames: ['ok.pdf', 'a/b.pdf', ' x'] })).toEqual({
      'filenames[1]': ['Filename must not contain / or \\'],
      'filenames[2]': ['Filename must not start or end with a space'],
    });
  });

  it('refuses names that are equal after NFC normalization, at the later index', () => {
    const errors = parameterErrorsOf(batchUploadRequestSchema, {
      filenames: [`caf${composedE}.pdf`, 'other.pdf', `caf${decomposedE}.pdf`, 'other.pdf'],
    });
    expect(errors).toEqual({
      'filenames[2]': ['Duplicate filename: same name as item 0'],
      'filenames[3]': ['Duplicate filename: same name as item 1'],
    });
  });

  it('reports duplicates and bad names together', () => {
    const errors = parameterErrorsOf(batchUploadRequestSchema, { filenames: ['a.pdf', 'a.pdf', '..'] });
    expect(Object.keys(errors).sort()).toEqual(['filenames[1]', 'filenames[2]']);
  });

  it('needs 1..50 names and no other property', () => {
    expect(parameterErrorsOf(batchUploadRequestSchema, { filenames: [] })).toEqual({
      filenames: ['At least one filename is required'],
    });
    const fiftyOne = Array.from({ length: 51 }, (_, index) => `file-${index}.pdf`);
    expect(parameterErrorsOf(batchUploadRequestSchema, { filenames: fiftyOne })).toEqual({
      filenames: ['At most 50 filenames'],
    });
    expect(parameterErrorsOf(batchUploadRequestSchema, { filenames: ['a.pdf'], bucket: 'x' })).toEqual({
      bucket: ['Unknown property'],
    });
  });
});
