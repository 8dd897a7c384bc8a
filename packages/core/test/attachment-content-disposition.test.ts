import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentContentDisposition } from '../src/domain/attachment-content-disposition.js';
import { toWellFormedText } from '../src/validation/parse-request.js';

/** The name a current browser reads: the RFC 5987 `filename*` parameter, percent-decoded. */
const extendedFilenameOf = (header: string): string =>
  decodeURIComponent(/; filename\*=UTF-8''([^;\s]+)$/.exec(header)?.[1] ?? '');

describe('attachmentContentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266 / RFC 5987)', () => {
    expect(attachmentContentDisposition('Relevé "final" 100%.pdf')).toBe(
      `attachment; filename="Releve _final_ 100_.pdf"; filename*=UTF-8''Relev%C3%A9%20%22final%22%20100%25.pdf`,
    );
    expect(attachmentContentDisposition("a+b #1 it's (x)*.pdf")).toBe(
      `attachment; filename="a+b #1 it's (x)*.pdf"; filename*=UTF-8''a+b%20#1%20it%27s%20%28x%29%2A.pdf`,
    );
    expect(attachmentContentDisposition('日本語.pdf')).toBe(
      `attachment; filename="___.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.pdf`,
    );
  });

  it('never puts a path step in the fallback: fullwidth dots and slashes that NFKD makes ASCII', () => {
    const fallbackOf = (name: string) => /filename="([^"]*)"/.exec(attachmentContentDisposition(name))?.[1];
    expect(fallbackOf('..／..／etc／passwd')).toBe('.._.._etc_passwd');
    expect(fallbackOf('．．／．．／etc／passwd')).toBe('.._.._etc_passwd');
    expect(fallbackOf('a＼b.pdf')).toBe('a_b.pdf');
    expect(fallbackOf('．．')).toBe('download');
    expect(fallbackOf('．')).toBe('download');
    expect(fallbackOf('')).toBe('download');
    // Ordinary names are unchanged.
    expect(fallbackOf('report.final.pdf')).toBe('report.final.pdf');
    expect(fallbackOf('.env')).toBe('.env');
    expect(extendedFilenameOf(attachmentContentDisposition('．．／x'))).toBe('．．／x');
  });

  it('round-trips any name through the header as a browser reads it', () => {
    for (const name of ['emoji 🎉.txt', 'back\\slash', 'tab\tname', '%41%42', 'a;b,c=d']) {
      const header = attachmentContentDisposition(name);
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      expect(extendedFilenameOf(header)).toBe(name);
    }
  });

  it('is total: any string, unpaired surrogates included, gives a printable-ASCII header (1,000 cases)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (name) => {
        const header = attachmentContentDisposition(name);
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        expect(header).not.toMatch(/filename="[^"]*\//);
        expect(extendedFilenameOf(header)).toBe(toWellFormedText(name));
      }),
      { numRuns: 1000 },
    );
    expect(extendedFilenameOf(attachmentContentDisposition('a\ud800b.pdf'))).toBe('a\ufffdb.pdf');
  });
});
