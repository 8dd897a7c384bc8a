import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MATCH_THRESHOLD,
  loadSanctionsList,
  normalizeName,
  type ScreenedName,
} from '../src/index.js';

const fixture = fileURLToPath(new URL('../fixtures/targets.simple.csv', import.meta.url));
const fixtureList = async () => (await loadSanctionsList(createReadStream(fixture)))._unsafeUnwrap();

const person = (name: string): ScreenedName => ({ kind: 'person', name });
const organization = (name: string): ScreenedName => ({ kind: 'organization', name });

describe('the shipped fixture list', () => {
  it('loads every target of the file, streamed', async () => {
    expect((await fixtureList()).size).toBe(7);
  });

  it('matches transliterations, accents, word order and punctuation variants', async () => {
    const list = await fixtureList();
    const cases: [ScreenedName, string][] = [
      [person('Дмитрий Соколов'), 'fx-person-sokolov'],
      [person('SOKOLOV Dmitriy'), 'fx-person-sokolov'],
      [person('Dmitri Ivanovich Sokolov'), 'fx-person-sokolov'],
      [person('Jose Luis Martinez Garcia'), 'fx-person-martinez'],
      [person('JOSÉ LUIS MARTÍNEZ'), 'fx-person-martinez'],
      [person('Ιωάννης Παπαδόπουλος'), 'fx-person-papadopoulos'],
      [person('Ioannis Papadopulos'), 'fx-person-papadopoulos'],
      [person('Hans Mueller'), 'fx-person-muller'],
      [person('Kim Chol-Su'), 'fx-person-kim'],
      [person('김철수'), 'fx-person-kim'],
      [organization('NORTHWIND MARITIME TRADING SA'), 'fx-company-northwind'],
      [organization('Northwind Maritime Trading, S.A.'), 'fx-company-northwind'],
      [organization('Нордвинд Маритайм Трейдинг'), 'fx-company-northwind'],
    ];
    for (const [screened, targetId] of cases) {
      const matches = list.match(screened);
      expect(
        matches.map((match) => match.targetId),
        screened.name,
      ).toEqual([targetId]);
      expect(matches[0]?.score, screened.name).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
    }
  });

  it('is not walked past by one character: separators inside words, small capitals, look-alike letters', async () => {
    const list = await fixtureList();
    for (const name of [
      'Dmitri Soko-lov',
      'Dmitri So kolov',
      'Dmi-tri Soko-lov',
      'ᴅᴍɪᴛʀɪ ꜱᴏᴋᴏʟᴏᴠ',
      'Dmitri ᏚokoIov',
      'Dmitri Ѕоkоlоv',
      'Dmitri So\u200Bkolov',
      'DmitriSokolov',
    ]) {
      expect(
        list.match(person(name)).map((match) => match.targetId),
        name,
      ).toEqual(['fx-person-sokolov']);
    }
  });

  it('reads legal forms written out, abbreviated or in another language as one', async () => {
    const list = await fixtureList();
    for (const name of [
      'Northwind Maritime Trading Société Anonyme',
      'Northwind Maritime Trading',
      'NORTHWIND MARITIME TRADING S. A.',
    ]) {
      expect(
        list.match(organization(name)).map((match) => match.targetId),
        name,
      ).toEqual(['fx-company-northwind']);
    }
  });

  it('lowers the score of a client of another country, but never hides a name identical word for word', async () => {
    const list = await fixtureList();
    const [same] = list.match({ ...person('Dmitri Sokolov'), country: 'RU' });
    const [other] = list.match({ ...person('Dmitri Sokolov'), country: 'DE' });
    expect(same?.score).toBe(100);
    expect(same?.explanation.country).toEqual({ subject: 'RU', listed: ['ru'], outcome: 'MATCH' });
    expect(other?.score).toBeLessThan(100);
    expect(other?.score).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
    expect(other?.explanation.country?.outcome).toBe('MISMATCH');
    expect(other?.explanation.summary).toContain('lowered');
    // Even with a threshold above the lowered score, an exact name stays a match.
    expect(
      list.match({ ...person('Dmitri Sokolov'), country: 'DE' }, 99).map((match) => match.targetId),
    ).toEqual(['fx-person-sokolov']);
  });

  it('does not match near misses: another first or last name, another company, another kind of target', async () => {
    const list = await fixtureList();
    for (const screened of [
      person('Dmitri Sobolev'),
      person('Joseph Martin'),
      person('José Luis Marín Gómez'),
      person('Ioannis Papadakis'),
      person('Kim Chol Min'),
      person('Hans Peter Schmidt'),
      organization('Northwind Logistics Ltd'),
      // A company named like a listed person, and a person named like a listed company.
      organization('Dmitri Sokolov'),
      person('Northwind Maritime Trading SA'),
      person(''),
      person('  -- '),
    ]) {
      expect(list.match(screened), screened.name).toEqual([]);
    }
  });

  it('answers the list, the target and the alias that matched; a vessel of the same name is not a person', async () => {
    const list = await fixtureList();
    expect(list.match(person('Dmitri Sokolov'))).toEqual([
      {
        targetId: 'fx-person-sokolov',
        target: {
          id: 'fx-person-sokolov',
          schema: 'Person',
          name: 'Dmitri Ivanovich SOKOLOV',
          aliases: ['Dmitriy Sokolov', 'Дмитрий Соколов', 'Dmitri Sokolov'],
          datasets: ['Fixture Sanctions List A', 'Fixture Sanctions List B'],
          countries: ['ru'],
          birthDates: ['1961-04-12'],
        },
        targetName: 'Dmitri Ivanovich SOKOLOV',
        matchedName: 'Dmitri Sokolov',
        listName: 'Fixture Sanctions List A',
        score: 100,
        explanation: {
          summary:
            'Score 100: "dmitri" = "dmitri" (exact, 56% of the weight); "sokolov" = "sokolov" (exact, 44% of the weight).',
          tokens: [
            { subject: 'dmitri', listed: 'dmitri', kind: 'EXACT', similarity: 1, weight: 0.56 },
            { subject: 'sokolov', listed: 'sokolov', kind: 'EXACT', similarity: 1, weight: 0.44 },
          ],
          unmatchedSubject: [],
          unmatchedListed: [],
        },
      },
    ]);
    // A lower threshold lets weaker candidates through, best first: the surname alone is one.
    const loose = list.match(person('Sokolov'), 50);
    expect(loose.map((match) => match.targetId)).toEqual(['fx-person-sokolov']);
    expect(loose[0]?.score).toBeLessThan(DEFAULT_MATCH_THRESHOLD);
  });
});

describe('reading targets.simple.csv', () => {
  async function* chunks(text: string, size: number) {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  it('reads a file cut anywhere, a BOM, quoted cells and multi-line cells', async () => {
    const text =
      '\ufeffid,schema,name,aliases,dataset\n' +
      'a,Person,"Smith, John",Джон Смит;J. Smith,"List ""One"""\n' +
      'b,Company,"Acme\nHoldings",,List Two\n';
    const list = (await loadSanctionsList(chunks(text, 3)))._unsafeUnwrap();
    expect(list.size).toBe(2);
    expect(list.match(person('John Smith'))[0]).toMatchObject({ targetId: 'a', listName: 'List "One"' });
    expect(list.match(organization('ACME Holdings'))[0]).toMatchObject({ targetId: 'b' });
  });

  it('reads a large list row by row from a generator (20,000 rows)', async () => {
    async function* rows() {
      yield 'id,schema,name,aliases,dataset\n';
      for (let i = 0; i < 20_000; i += 1) yield `p${i},Person,Person Number ${i},,Generated\n`;
    }
    const list = (await loadSanctionsList(rows()))._unsafeUnwrap();
    expect(list.size).toBe(20_000);
    expect(list.match(person('Person Number 12345')).map((match) => match.targetId)).toContain('p12345');
  });

  it('refuses a file without the required columns, malformed CSV, and a failing source', async () => {
    const missing = await loadSanctionsList(chunks('id,name\nx,Someone\n', 64));
    expect(missing._unsafeUnwrapErr()).toEqual({
      type: 'SanctionsListUnreadable',
      reason: 'Missing column(s): schema, aliases, dataset',
    });
    const malformed = await loadSanctionsList(
      chunks('id,schema,name,aliases,dataset\nx,Person,"Unclosed\n', 64),
    );
    expect(malformed._unsafeUnwrapErr().type).toBe('SanctionsListUnreadable');
    async function* failing() {
      yield 'id,schema,name,aliases,dataset\n';
      throw new Error('connection reset');
    }
    expect((await loadSanctionsList(failing()))._unsafeUnwrapErr()).toEqual({
      type: 'SanctionsListUnreadable',
      reason: 'connection reset',
    });
  });
});

describe('name normalization', () => {
  it('transliterates, folds case and accents, drops dots and apostrophes', () => {
    expect(normalizeName('Дмитрий Соколов')).toBe('dmitriy sokolov');
    expect(normalizeName('  José-Luis  MARTÍNEZ ')).toBe('jose luis martinez');
    expect(normalizeName("Séan O'Brien")).toBe('sean obrien');
    expect(normalizeName('Acme S.A.')).toBe('acme sa');
    expect(normalizeName('ＡＣＭＥ')).toBe('acme');
  });
});
