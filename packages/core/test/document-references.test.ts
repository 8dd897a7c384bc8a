import { describe, expect, it } from 'vitest';
import { collectDocumentReferences, replaceDocumentReferences } from '../src/domain/documents.js';
import { exampleEntityPayload, exampleIndividualPayload } from '../src/index.js';

const keyOf = (filename: string) => `key-of-${filename}`;

describe('replaceDocumentReferences', () => {
  it('replaces every document filename, at any depth, and leaves the payload as it was', () => {
    const payload = exampleEntityPayload({
      turnoverDocuments: ['turnover.pdf'],
      directorIdDocuments: ['director.pdf', 'turnover.pdf'],
      representativeSupportingDocuments: ['mandate.pdf'],
    });
    const before = structuredClone(payload);
    const replaced = replaceDocumentReferences(payload, keyOf);
    expect(payload).toEqual(before);
    const names = collectDocumentReferences(payload).map((reference) => reference.filename);
    expect(names.length).toBeGreaterThan(1);
    expect(collectDocumentReferences(replaced).map((reference) => reference.filename)).toEqual(
      names.map(keyOf),
    );
    // Nothing else differs.
    expect(JSON.stringify(replaced).replaceAll('key-of-', '')).toBe(JSON.stringify(payload));
  });

  it('shares what leads to no document field and renews only the way to each one', () => {
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const replaced = replaceDocumentReferences(payload, keyOf);
    expect(replaced).not.toBe(payload);
    expect(replaced.profile).not.toBe(payload.profile);
    expect(replaced.profile.idDocuments).toEqual(['key-of-passport.pdf']);
    expect(payload.profile.idDocuments).toEqual(['passport.pdf']);
    expect(replaced.bankAccounts).toBe(payload.bankAccounts);
    expect(replaced.sourceOfFunds).toBe(payload.sourceOfFunds);
    const withoutDocuments = { a: { b: [1, { c: 'x' }] } };
    expect(replaceDocumentReferences(withoutDocuments, keyOf)).toBe(withoutDocuments);
  });

  it('keeps an own __proto__ key as data on the way to a document', () => {
    const payload = JSON.parse('{"__proto__": {"idDocuments": ["a.pdf"]}, "x": 1}') as Record<
      string,
      unknown
    >;
    const replaced = replaceDocumentReferences(payload, keyOf);
    expect(Object.getPrototypeOf(replaced)).toBe(Object.prototype);
    expect(Object.keys(replaced)).toEqual(['__proto__', 'x']);
    expect(JSON.stringify(replaced)).toBe('{"__proto__":{"idDocuments":["key-of-a.pdf"]},"x":1}');
    expect(({} as Record<string, unknown>).idDocuments).toBeUndefined();
  });
});
