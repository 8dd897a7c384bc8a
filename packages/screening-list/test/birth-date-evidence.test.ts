import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { birthDateEvidence, birthYear } from '../src/birth-date-evidence.js';
import { DEFAULT_MATCH_THRESHOLD, loadSanctionsList, type ScreenedName } from '../src/index.js';

/** A list of persons, each `[id, name, birth_date cell]`, and a few hundred others so words weigh as on a list. */
const listOf = async (targets: readonly (readonly [string, string, string])[]) => {
  const rows = ['id,schema,name,aliases,birth_date,countries,dataset\n'];
  for (const [id, name, dates] of targets) rows.push(`${id},Person,"${name}",,"${dates}",ru,Test List\n`);
  for (let at = 0; at < 300; at += 1) rows.push(`other-${at},Person,"Person${at} Other${at}",,,,Test List\n`);
  return (await loadSanctionsList(Readable.from(rows)))._unsafeUnwrap();
};

const person = (name: string, birthDate?: string): ScreenedName => ({
  kind: 'person',
  name,
  ...(birthDate === undefined ? {} : { birthDate }),
});

describe('birthYear', () => {
  it('reads a full date, a month or a year, and nothing else', () => {
    expect(birthYear('1961-04-12')).toBe(1961);
    expect(birthYear('1961-04')).toBe(1961);
    expect(birthYear(' 1961 ')).toBe(1961);
    for (const unreadable of [
      'circa 1961',
      '12/04/1961',
      '1961-13-01',
      '1961-02-30',
      '0961',
      '19610412',
      '',
      '1961-4-12',
      'unknown',
    ])
      expect(birthYear(unreadable), unreadable).toBeUndefined();
  });
});

describe('birthDateEvidence', () => {
  it('is a MATCH when a listed year is within one of the client’s, a MISMATCH when none is, UNKNOWN without a readable one', () => {
    expect(birthDateEvidence('1961-04-12', ['1961-04-12'])?.outcome).toBe('MATCH');
    // A year off is a slip of data entry, not another person.
    expect(birthDateEvidence('1962-01-03', ['1961-04-12'])?.outcome).toBe('MATCH');
    expect(birthDateEvidence('1960-12-31', ['1961'])?.outcome).toBe('MATCH');
    expect(birthDateEvidence('1963-04-12', ['1961-04-12'])?.outcome).toBe('MISMATCH');
    // Several dates: one close enough is a match.
    expect(birthDateEvidence('1970-05-05', ['1961-04-12', '1969'])?.outcome).toBe('MATCH');
    expect(birthDateEvidence('1980-05-05', ['1961-04-12', '1969'])?.outcome).toBe('MISMATCH');
    // Unreadable dates on the list are ignored: evidence of nothing.
    expect(birthDateEvidence('1980-05-05', ['circa 1960', '??'])).toEqual({
      subject: '1980-05-05',
      listed: ['circa 1960', '??'],
      outcome: 'UNKNOWN',
    });
    expect(birthDateEvidence('1980-05-05', ['circa 1960', '1961'])?.outcome).toBe('MISMATCH');
    expect(birthDateEvidence('1980-05-05', [])?.outcome).toBe('UNKNOWN');
    // The client's own date unreadable: no evidence at all.
    expect(birthDateEvidence('05/05/1980', ['1961'])).toBeUndefined();
  });
});

describe('a birth date screened with the name', () => {
  it('lowers a name-only resemblance to a listed person born in another year below the threshold', async () => {
    const list = await listOf([['lovba', 'Andrey Borisovich Lovba', '1961-04-12']]);
    const [nameOnly] = list.match(person('Andrey Lovba'));
    expect(nameOnly?.targetId).toBe('lovba');
    expect(nameOnly?.explanation.birthDate).toBeUndefined();
    expect(list.match(person('Andrey Lovba', '1985-07-01'))).toEqual([]);
    // Asked at any threshold, the evidence is there for the reviewer, and the score is lowered.
    const [lowered] = list.match(person('Andrey Lovba', '1985-07-01'), 0);
    expect(lowered?.score).toBeCloseTo((nameOnly?.score ?? 0) * 0.8, 0);
    expect(lowered?.explanation.birthDate).toEqual({
      subject: '1985-07-01',
      listed: ['1961-04-12'],
      outcome: 'MISMATCH',
    });
    expect(lowered?.explanation.summary).toContain('birth date 1985-07-01');
  });

  it('leaves the score as it is without the client’s date, with a matching or one-year-off one, or an entry without a date', async () => {
    const list = await listOf([
      ['lovba', 'Andrey Borisovich Lovba', '1961-04-12'],
      ['zhesha', 'Arkadiy Nikolayevich Zhesha', ''],
      ['nyba', 'Ivan Ivanovich Nyba', '1958;1960'],
    ]);
    const score = (screened: ScreenedName) => list.match(screened)[0]?.score;
    const nameOnly = score(person('Andrey Lovba'));
    expect(nameOnly).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
    expect(score(person('Andrey Lovba', '1961-04-12'))).toBe(nameOnly);
    expect(list.match(person('Andrey Lovba', '1961-04-12'))[0]?.explanation.birthDate?.outcome).toBe('MATCH');
    expect(score(person('Andrey Lovba', '1960-11-30'))).toBe(nameOnly);
    expect(score(person('Andrey Lovba', '1962-02-01'))).toBe(nameOnly);
    // No date on the list: UNKNOWN, nothing lowered.
    const zhesha = list.match(person('Arkadiy Zhesha', '1985-07-01'));
    expect(zhesha[0]?.score).toBe(score(person('Arkadiy Zhesha')));
    expect(zhesha[0]?.explanation.birthDate?.outcome).toBe('UNKNOWN');
    // Several years on the list (one a year only): close to either is a match.
    expect(score(person('Ivan Nyba', '1961-01-01'))).toBe(score(person('Ivan Nyba')));
    expect(score(person('Ivan Nyba', '1957-01-01'))).toBe(score(person('Ivan Nyba')));
    expect(list.match(person('Ivan Nyba', '1963-01-01'))).toEqual([]);
  });

  it('never hides an exact name for a wrong birth date, alone or with another country', async () => {
    const list = await listOf([['sokolov', 'Dmitri Ivanovich Sokolov', '1961-04-12']]);
    for (const screened of [
      person('Dmitri Ivanovich Sokolov', '1990-01-01'),
      { ...person('Dmitri Ivanovich Sokolov', '1990-01-01'), country: 'DE' },
    ]) {
      const [hit] = list.match(screened);
      expect(hit?.targetId).toBe('sokolov');
      expect(hit?.score).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
      expect(hit?.score).toBeLessThan(100);
      expect(hit?.explanation.birthDate?.outcome).toBe('MISMATCH');
      // Even asked with a threshold above the lowered score.
      expect(list.match(screened, 99).map((match) => match.targetId)).toEqual(['sokolov']);
    }
  });

  it('never hides a listed name written another way (one letter, a romanization) behind a false birth year', async () => {
    // near-exact-name-with-a-false-birth-date: the client writes the name and the date; before, a
    // letter changed (98.8–99 on the name) and another year (× 0.8: 79) screened CLEAR.
    const list = await listOf([['sokolov', 'Dmitri Sokolov', '1961-04-12']]);
    for (const name of ['Dmitry Sokolov', 'Dmitri Sokolow', 'Dmitrii Sokolov', 'Sokolov Dmitry']) {
      expect(list.match(person(name))[0]?.score, name).toBeGreaterThanOrEqual(97);
      checkFalseYear(name);
    }
    // The listed name whole inside a longer one, words added to it, is not hidden by a false year either.
    for (const name of ['Dmitri Pavel Andrei Sokolov', 'Dmitri Pavel Andrei Olga Boris Sokolov'])
      checkFalseYear(name);
    function checkFalseYear(name: string) {
      for (const screened of [person(name, '1990-01-01'), { ...person(name, '1900-01-01'), country: 'DE' }]) {
        const [hit] = list.match(screened);
        expect(hit?.targetId, `${name} ${screened.birthDate}`).toBe('sokolov');
        expect(hit?.score).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
        expect(hit?.explanation.birthDate?.outcome).toBe('MISMATCH');
      }
    }
    // A namesake (a listed word left out) or another name still gives way to another year.
    const lovba = await listOf([['lovba', 'Andrey Borisovich Lovba', '1961-04-12']]);
    expect(lovba.match(person('Andrey Lovba', '1990-01-01'))).toEqual([]);
  });

  it('ignores a malformed date on the list or from the client, and never fails for it', async () => {
    const list = await listOf([['lovba', 'Andrey Borisovich Lovba', 'circa 1960;1961-02-30;;abc']]);
    const nameOnly = list.match(person('Andrey Lovba'))[0]?.score;
    const [hit] = list.match(person('Andrey Lovba', '1985-07-01'));
    expect(hit?.score).toBe(nameOnly);
    expect(hit?.explanation.birthDate?.outcome).toBe('UNKNOWN');
    const [unread] = list.match(person('Andrey Lovba', 'not a date'));
    expect(unread?.score).toBe(nameOnly);
    expect(unread?.explanation.birthDate).toBeUndefined();
  });
});
