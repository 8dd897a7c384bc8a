/**
 * A Chinese name written in Wade-Giles (`Wang Chien-lin`, `Hsi Chin-p'ing`, `Mao Tse-tung`) read in
 * pinyin, as lists write Chinese names (`WANG Jianlin`, `XI Jinping`, `MAO Zedong`): `hs` is x,
 * `ch` j before i and ü and zh otherwise, `ts` and `tz` z, `j` r, `k`, `p`, `t` g, b, d unless an
 * apostrophe marks them aspirated (`p'ing` → ping), `-ien` -ian, `-ieh` -ie, `-ung` -ong, `-ih` i.
 *
 * Only a name of two to four words, each word one syllable of Wade-Giles or a few joined by
 * hyphens, one word at least read otherwise in pinyin (`wadeGilesReading`). No package of the
 * registry reads Wade-Giles back into pinyin (they turn Han characters into pinyin; Python's
 * pypinyin writes Wade-Giles from Han characters).
 */

const APOSTROPHE = /['’‘`ʼ]/;
/** What a name in Wade-Giles shows and most others do not: a syllable pinyin spells otherwise, an apostrophe, a hyphen. */
const WADE_GILES_MARK = /hs|ts|tz|ien|ieh|ung\b|ih\b|['’‘`ʼ-]/i;
const INITIAL = /^(?:ch|hs|ts|tz|ss|sz|sh|[ptkfhlmnsjwy])?/;
const FINALS: ReadonlySet<string> = new Set(
  [
    ['a', 'ai', 'an', 'ang', 'ao', 'e', 'ei', 'en', 'eng', 'erh', 'i', 'ia', 'iang', 'iao', 'ieh', 'ien'],
    ['ih', 'in', 'ing', 'iu', 'iung', 'o', 'ou', 'u', 'ua', 'uai', 'uan', 'uang', 'ui', 'uei', 'un'],
    ['ung', 'uo', 'ueh', 'eh'],
  ].flat(),
);
/** Finals that pinyin writes another way. */
const PINYIN_FINALS: Readonly<Record<string, string>> = {
  ien: 'ian',
  ieh: 'ie',
  ueh: 'ue',
  eh: 'e',
  iung: 'iong',
  ung: 'ong',
  uei: 'ui',
  erh: 'er',
};

/** One syllable of Wade-Giles (lower case, marks dropped, its apostrophe kept) in pinyin, or null. */
const pinyinSyllable = (written: string): string | null => {
  const aspirated = APOSTROPHE.test(written);
  const syllable = written.replace(APOSTROPHE, '');
  const initial = INITIAL.exec(syllable)?.[0] ?? '';
  let final = syllable.slice(initial.length);
  if (!FINALS.has(final)) return null;
  // Standalone finals: `i` is yi, `yeh` ye, `yen` yan, `yu` you, `yung` yong, `wen` wen.
  if (initial === '') {
    if (final === 'i') return 'yi';
    if (final === 'erh') return 'er';
    return PINYIN_FINALS[final] ?? final;
  }
  let pinyin: string;
  switch (initial) {
    case 'ch':
      pinyin = final.startsWith('i') ? (aspirated ? 'q' : 'j') : aspirated ? 'ch' : 'zh';
      break;
    case 'hs':
      pinyin = 'x';
      break;
    case 'ts':
    case 'tz':
      pinyin = aspirated ? 'c' : 'z';
      break;
    case 'ss':
    case 'sz':
      pinyin = 's';
      break;
    case 'j':
      pinyin = 'r';
      break;
    case 'k':
      pinyin = aspirated ? 'k' : 'g';
      break;
    case 'p':
      pinyin = aspirated ? 'p' : 'b';
      break;
    case 't':
      pinyin = aspirated ? 't' : 'd';
      break;
    default:
      pinyin = initial;
  }
  // `yen` is yan (`yeh` ye, through `eh`).
  if (initial === 'y' && final === 'en') return 'yan';
  // `ih` after ch, sh, j and `u` after ts, tz, ss are pinyin's `i` (chih → zhi, tzu → zi).
  if (final === 'ih') final = 'i';
  else if (final === 'u' && ['ts', 'tz', 'ss', 'sz'].includes(initial)) final = 'i';
  // `o` is e after k and h (ko → ge), uo after the dental and retroflex initials (lo → luo).
  else if (final === 'o' && ['k', 'h'].includes(initial)) final = 'e';
  else if (final === 'o' && ['l', 't', 'n', 's', 'ts', 'tz', 'ch', 'j'].includes(initial)) final = 'uo';
  else final = PINYIN_FINALS[final] ?? final;
  return pinyin + final;
};

/**
 * The name read as pinyin when it reads as Wade-Giles (two to four words, each one syllable or
 * syllables joined by hyphens, one word at least written otherwise in pinyin): `Wang Chien-lin` →
 * `wang jianlin`; undefined otherwise.
 */
export const wadeGilesReading = (name: string): string | undefined => {
  if (!WADE_GILES_MARK.test(name)) return undefined;
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[\s,]+/u)
    .filter((word) => word !== '');
  if (words.length < 2 || words.length > 4) return undefined;
  const read: string[] = [];
  for (const word of words) {
    const syllables = word.split('-');
    if (syllables.length > 3) return undefined;
    let pinyin = '';
    for (const syllable of syllables) {
      const one = pinyinSyllable(syllable);
      if (one === null) return undefined;
      pinyin += one;
    }
    read.push(pinyin);
  }
  const reading = read.join(' ');
  const plain = words.map((word) => word.replace(/-/g, '').replace(APOSTROPHE, '')).join(' ');
  return reading === plain ? undefined : reading;
};
