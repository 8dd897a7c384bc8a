/**
 * Writes the labelled evaluation set (`name-pairs.tsv`: kind, listed name, screened name, whether
 * they name the same party, the kind of variation) and the clean names (`clean-names.txt`), both
 * committed: `node --import tsx packages/screening-list/eval/generate-evaluation-sets.ts`.
 * Hand-written pairs (the examples and their kinds) come first; the rest are drawn from
 * `multicultural-names.ts` with a fixed seed, each variation written as a person would meet it.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Culture,
  cultures,
  type Part,
  pick,
  seededRandom,
  syntheticFamily,
} from './multicultural-names.js';

type Pair = readonly [
  kind: 'person' | 'company',
  listed: string,
  screened: string,
  match: 0 | 1,
  variation: string,
];

const handWritten: Pair[] = [
  ['company', 'Siemens AG', 'Siemens Aktiengesellschaft', 1, 'legal form written out'],
  ['company', 'Stripe LLC', 'Stripe Limited Liability Company', 1, 'legal form written out'],
  ['company', 'CRYSTALORD LTD', 'CRYSTALORD LIMITED', 1, 'legal form written out'],
  ['company', 'Gazprom Neft PJSC', 'PAO Gazprom Neft', 1, 'legal form in another language'],
  ['company', 'OOO Romashka', 'Romashka LLC', 1, 'legal form in another language'],
  ['company', 'ООО «Ромашка»', 'Romashka Limited Liability Company', 1, 'legal form in another script'],
  ['company', 'АО Алмаз Холдинг', 'Almaz Holding JSC', 1, 'legal form in another script'],
  [
    'company',
    'Northwind Maritime Trading S.A.',
    'Northwind Maritime Trading SA',
    1,
    'legal form punctuation',
  ],
  [
    'company',
    'Northwind Maritime Trading S.A.',
    'Northwind Maritime Trading Société Anonyme',
    1,
    'legal form written out',
  ],
  [
    'company',
    'Baltic Shipping GmbH',
    'Baltic Shipping Gesellschaft mit beschränkter Haftung',
    1,
    'legal form written out',
  ],
  ['company', 'Orion Metals PLC', 'Orion Metals Public Limited Company', 1, 'legal form written out'],
  ['company', 'Cedar Energy Inc.', 'Cedar Energy Incorporated', 1, 'legal form written out'],
  ['company', 'Zenith Capital B.V.', 'Zenith Capital BV', 1, 'legal form punctuation'],
  ['company', 'Al Qaeda', "Al-Qa'ida", 1, 'romanization'],
  ['company', 'Al Qaeda', 'al-Qaida', 1, 'romanization'],
  ['company', 'Al Qaeda', 'القاعدة', 1, 'Arabic script'],
  ['company', 'Al Qaeda', 'Alqaeda', 1, 'joined words'],
  ['company', 'Hizballah', 'Hezbollah', 1, 'romanization'],
  ['company', 'Siemens AG', 'Simmons AG', 0, 'look-alike'],
  ['company', 'Northwind Maritime Trading S.A.', 'Northstar Maritime Trading S.A.', 0, 'look-alike'],
  ['company', 'Stripe LLC', 'Stripes Media LLC', 0, 'look-alike'],
  ['company', 'Baltic Shipping GmbH', 'Caspian Shipping GmbH', 0, 'look-alike'],
  ['company', 'Orion Metals PLC', 'Orion Energy PLC', 0, 'look-alike'],
  ['company', 'Almaz Holding JSC', 'Alrosa Holding JSC', 0, 'look-alike'],
  ['person', 'Vladimir Vladimirovich PUTIN', 'VladimirPutin', 1, 'joined words'],
  ['person', 'Sergei Viktorovich LAVROV', 'SergeiLavrov', 1, 'joined words'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri Soko-lov', 1, 'separator inside a word'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri So kolov', 1, 'separator inside a word'],
  ['person', 'Dmitri SOKOLOV', 'Dmi-tri Soko-lov', 1, 'separator inside a word'],
  ['person', 'Dmitri SOKOLOV', 'ᴅᴍɪᴛʀɪ ꜱᴏᴋᴏʟᴏᴠ', 1, 'small capitals'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri ᏚokoIov', 1, 'confusable letters'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri Ѕоkоlоv', 1, 'confusable letters'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri So\u200Bkolov', 1, 'zero-width character'],
  ['person', 'Dmitri SOKOLOV', 'Ｄｍｉｔｒｉ Ｓｏｋｏｌｏｖ', 1, 'fullwidth letters'],
  ['person', 'Dmitri SOKOLOV', 'Dmitri Sobolev', 0, 'look-alike'],
  ['person', 'Vladimir PUTIN', 'Vladimir Popov', 0, 'look-alike'],
  ['person', 'Ivan PETROV', 'Ivan Petrovich', 0, 'look-alike'],
  ['person', 'Kim Jong Un', 'Kim Jong-un', 1, 'separator inside a word'],
  ['person', 'Kim Jong Un', '김정은', 1, 'Hangul'],
  ['person', 'Kim Jong Un', 'Kim Jongun', 1, 'joined words'],
  ['person', 'Xi Jinping', '习近平', 1, 'Han'],
  ['person', 'Mohammed bin Salman', 'Muhammad bin Salman', 1, 'romanization'],
  ['person', 'Mohammed bin Salman', 'محمد بن سلمان', 1, 'Arabic script'],
  ['person', 'Osama bin Laden', 'Usama bin Ladin', 1, 'romanization'],
  ['person', 'Aleksandr Grigoryevich LUKASHENKO', 'Alexander Lukashenko', 1, 'romanization'],
  ['person', 'Aleksandr Grigoryevich LUKASHENKO', 'Аляксандр Лукашэнка', 1, 'Belarusian Cyrillic'],
  ['person', 'Yevgeny PRIGOZHIN', 'Evgeniy Prigozhin', 1, 'romanization'],
  ['person', 'Ramzan KADYROV', 'Рамзан Кадыров', 1, 'Cyrillic'],
  ['person', 'Ali KHAMENEI', 'Ali Khamenei', 1, 'same'],
  ['person', 'Ali KHAMENEI', 'Ali Hamedani', 0, 'look-alike'],
  ['person', 'José Luis MARTÍNEZ GARCÍA', 'Jose Luis Martinez', 1, 'second surname missing'],
  ['person', 'José Luis MARTÍNEZ GARCÍA', 'José Luis Martínez Gómez', 0, 'other second surname'],
  ['person', 'Hans MÜLLER', 'Hans Mueller', 1, 'umlaut transcribed'],
  ['person', 'Ioannis PAPADOPOULOS', 'Ιωάννης Παπαδόπουλος', 1, 'Greek script'],
  ['person', 'Avraham COHEN', 'אברהם כהן', 1, 'Hebrew script'],
  // Legal forms in every spelling: abbreviated, written out, in another script or language.
  [
    'company',
    'ЗАО Северный Ветер',
    'Severnyy Veter Closed Joint Stock Company',
    1,
    'legal form in another script',
  ],
  [
    'company',
    'Закрытое акционерное общество «Северный Ветер»',
    'ZAO Severnyy Veter',
    1,
    'legal form written out',
  ],
  ['company', 'ТОВ Зоря Агро', 'Zorya Agro LLC', 1, 'legal form in another script'],
  [
    'company',
    'Kestrel Logistics Sdn. Bhd.',
    'Kestrel Logistics Sendirian Berhad',
    1,
    'legal form written out',
  ],
  [
    'company',
    'Vistula Trade Sp. z o.o.',
    'Vistula Trade Spółka z ograniczoną odpowiedzialnością',
    1,
    'legal form written out',
  ],
  [
    'company',
    'Hanse Kontor KGaA',
    'Hanse Kontor Kommanditgesellschaft auf Aktien',
    1,
    'legal form written out',
  ],
  ['company', 'Grupo Sierra Alta S.A. de C.V.', 'Grupo Sierra Alta SA de CV', 1, 'legal form punctuation'],
  [
    'company',
    'ООО Харбор Трейд',
    'Harbor Trade Limited Liability Company',
    1,
    'legal form in another script',
  ],
  ['company', 'Kestrel Logistics Sdn. Bhd.', 'Kestrel Aviation Sdn. Bhd.', 0, 'look-alike'],
  ['company', 'ТОВ Зоря Агро', 'Zorya Metal LLC', 0, 'look-alike'],
  // A patronymic left out, and a slip or another romanization on top.
  ['person', 'Oleg Viktorovich MARCHENKO', 'Oleg Marchenco', 1, 'middle name missing, misspelled'],
  ['person', 'Tatyana Igorevna BELOUSOVA', 'Tatyana Belousva', 1, 'middle name missing, misspelled'],
  ['person', 'Vladimir Nikolayevich ZHURAVLEV', 'Vladimir Zhuravlyov', 1, 'middle name missing, misspelled'],
  ['person', 'Konstantin Ivanovich DOROFEEV', 'Konstnatin Dorofeev', 1, 'middle name missing, misspelled'],
  ['person', 'Gennadiy Pavlovich SHUMILIN', 'Gennadiy Shumlin', 1, 'middle name missing, misspelled'],
  ['person', 'Mikhail Borisovich KHODORKOVSKIY', 'Mihail Hodorkovsky', 1, 'romanization'],
  ['person', 'Oleg Viktorovich MARCHENKO', 'Igor Marchenko', 0, 'other person'],
  ['person', 'Tatyana Igorevna BELOUSOVA', 'Tatyana Belova', 0, 'other family name'],
  // A letter left out of a short word of a name (Vietnamese and Korean syllables).
  ['person', 'NGUYEN Van Long', 'Nguyen Va Long', 1, 'letter dropped from a short word'],
  ['person', 'PAK Jong Chol', 'Pak Jon Chol', 1, 'letter dropped from a short word'],
  ['person', 'LE Thi Hoa', 'Le Ti Hoa', 1, 'letter dropped from a short word'],
  ['person', 'NGUYEN Van Long', 'Nguyen Van Lam', 0, 'other person'],
  // A letter typed from a neighbouring key is a slip; from a far one, another name.
  ['person', 'Marta KOWALCZYK', 'Marta Kowalczyl', 1, 'keyboard slip'],
  ['person', 'Henrik LINDQVIST', 'Henrik Lindqvust', 1, 'keyboard slip'],
  ['person', 'Henrik LINDQVIST', 'Henrik Lindqvism', 0, 'other family name'],
  ['person', 'Marta KOWALCZYK', 'Marta Kowalczyn', 0, 'other family name'],
  // A letter added before a word is another name (a slip rarely falls on the first letter); `y`
  // before a vowel is a romanization of Cyrillic Е, Ю, Я; a long word's first letter typed from a
  // neighbouring key is still a slip.
  ['person', 'Thomas STILLMAN', 'Thomas Tillman', 0, 'other family name'],
  ['person', 'Robert BRADFORD', 'Robert Radford', 0, 'other family name'],
  ['person', 'Daniel ABRAMSON', 'Daniel Bramson', 0, 'other family name'],
  ['person', 'Yevgeniy Viktorovich PRIGOZHIN', 'Evgeniy Prigozhin', 1, 'romanization'],
  ['person', 'Yekaterina VOLKOVA', 'Ekaterina Volkova', 1, 'romanization'],
  ['person', 'Wolfgang SCHAEUBLE', 'Wolfgang Achaeuble', 1, 'keyboard slip'],
  // Two letters typed for others, both from far keys, are another name; from neighbouring keys, slips.
  ['person', 'Esteban VILLACORTA', 'Esteban Villagorpa', 0, 'other family name'],
  ['person', 'Georgios KARAMANLIS', 'Georgios Karavanzis', 0, 'other family name'],
  ['person', 'Esteban VILLACORTA', 'Esteban Villaxorra', 1, 'keyboard slip'],
];

const written = (part: Part, native: boolean) => (native ? (part[1] ?? part[0]) : part[0]);
const confusable: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і', s: 'ѕ' };
const smallCapitals: Record<string, string> = {
  a: 'ᴀ',
  b: 'ʙ',
  c: 'ᴄ',
  d: 'ᴅ',
  e: 'ᴇ',
  g: 'ɢ',
  h: 'ʜ',
  i: 'ɪ',
  j: 'ᴊ',
  k: 'ᴋ',
  l: 'ʟ',
  m: 'ᴍ',
  n: 'ɴ',
  o: 'ᴏ',
  p: 'ᴘ',
  r: 'ʀ',
  s: 'ꜱ',
  t: 'ᴛ',
  u: 'ᴜ',
  v: 'ᴠ',
  w: 'ᴡ',
  y: 'ʏ',
  z: 'ᴢ',
};
const romanizations: readonly (readonly [string, string])[] = [
  ['Muhammad', 'Mohammed'],
  ['Muhammad', 'Mohamed'],
  ['Yusuf', 'Youssef'],
  ['Hussein', 'Husayn'],
  ['Omar', 'Umar'],
  ['Khalid', 'Khaled'],
  ['Saeed', 'Said'],
  ['Mahmoud', 'Mahmud'],
  ['Mustafa', 'Moustafa'],
  ['Qasim', 'Kassem'],
  ['Dmitriy', 'Dmitry'],
  ['Dmitriy', 'Dmitri'],
  ['Sergey', 'Sergei'],
  ['Aleksandr', 'Alexander'],
  ['Yuriy', 'Yuri'],
  ['Nikolay', 'Nikolai'],
  ['Andrey', 'Andrei'],
  ['Vasilyev', 'Vasiliev'],
  ['Yelena', 'Elena'],
  ['Tatyana', 'Tatiana'],
  ['Mikhail', 'Mikhael'],
  ['Gennadiy', 'Gennady'],
  ['Arkadiy', 'Arkady'],
  ['Yermakov', 'Ermakov'],
  ['Ioannis', 'Yannis'],
  ['Georgios', 'Giorgos'],
  ['Papadopoulos', 'Papadopulos'],
  ['Avraham', 'Abraham'],
  ['Yitzhak', 'Itzhak'],
  ['Cohen', 'Kohen'],
  ['Menachem', 'Menahem'],
  ['Choe', 'Choi'],
  ['Ri', 'Rhee'],
  ['Jong Un', 'Jong-un'],
  ['Chol Su', 'Chol-su'],
  ['Myong Chol', 'Myong-chol'],
];
const lookAlikeFamilies: readonly (readonly [string, string])[] = [
  ['Sokolov', 'Sobolev'],
  ['Petrov', 'Petrenko'],
  ['Popov', 'Pupkov'],
  ['Volkov', 'Volkonsky'],
  ['Orlov', 'Orlik'],
  ['Haddad', 'Hamdan'],
  ['Mansour', 'Mansouri Bakr'],
  ['Cohen', 'Cohn-Bendit'],
  ['Smith', 'Smithers'],
  ['Müller', 'Möller'],
  ['Schmidt', 'Schmitz'],
  ['Papadakis', 'Papadimas'],
  ['Martínez', 'Marín'],
  ['Kuznetsov', 'Kuzmin'],
  ['Novikov', 'Novak'],
  ['Karpov', 'Karimov'],
  ['Katz', 'Kratz'],
  ['Adeyemi', 'Adeleke'],
];

const random = seededRandom(0x38);
const pairs: Pair[] = [...handWritten];

const personParts = (culture: Culture) => {
  const given = pick(random, culture.given);
  const family = pick(random, culture.family);
  const middle = culture.middle !== undefined && random() < 0.5 ? pick(random, culture.middle) : undefined;
  return { given, family, middle };
};
const full = (culture: Culture, given: string, family: string, middle?: string) =>
  culture.familyFirst
    ? `${family} ${given}`
    : [given, middle, family].filter((part) => part !== undefined).join(' ');
const familyOf = (culture: Culture) => (name: string, family: string) =>
  culture.familyFirst ? name.replace(/^\S+/, family) : name.replace(/\S+$/, family);
const typo = (word: string) => {
  const at = 1 + Math.floor(random() * (word.length - 2));
  const operations = [
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + word.charAt(at) + word.slice(at),
    () => word.slice(0, at) + word.charAt(at + 1) + word.charAt(at) + word.slice(at + 2),
  ];
  return pick(random, operations)();
};
const mapLetters = (text: string, table: Record<string, string>, share: number) =>
  [...text]
    .map((letter) =>
      table[letter.toLowerCase()] !== undefined && random() < share ? table[letter.toLowerCase()] : letter,
    )
    .join('');

for (let round = 0; round < 14; round += 1) {
  for (const culture of cultures) {
    const { given, family, middle } = personParts(culture);
    const listed = full(culture, given[0], family[0].toUpperCase(), middle?.[0]);
    const plain = full(culture, given[0], family[0], middle?.[0]);
    const short = full(culture, given[0], family[0]);
    const withFamily = familyOf(culture);
    const variations: Pair[] = [];
    if (given[1] !== undefined && family[1] !== undefined) {
      variations.push([
        'person',
        listed,
        full(culture, written(given, true), written(family, true), middle?.[1]),
        1,
        'native script',
      ]);
      const roman = romanizations.find(([from]) => from === given[0] || from === family[0]);
      if (roman !== undefined)
        variations.push(['person', listed, plain.replace(roman[0], roman[1]), 1, 'romanization']);
    }
    variations.push([
      'person',
      listed,
      culture.familyFirst ? `${given[0]} ${family[0]}` : `${family[0].toUpperCase()}, ${given[0]}`,
      1,
      'reordered',
    ]);
    if (middle !== undefined) variations.push(['person', listed, short, 1, 'middle name missing']);
    if (!culture.familyFirst)
      variations.push(['person', listed, `${given[0].charAt(0)}. ${family[0]}`, 1, 'initial']);
    variations.push(['person', listed, short.replace(/ /g, ''), 1, 'joined words']);
    if (family[0].length >= 5)
      variations.push(['person', listed, withFamily(plain, typo(family[0])), 1, 'misspelled']);
    variations.push(['person', listed, mapLetters(plain, confusable, 0.5), 1, 'confusable letters']);
    variations.push(['person', listed, mapLetters(plain, smallCapitals, 1), 1, 'small capitals']);
    const cut = Math.max(2, Math.floor(family[0].length / 2));
    variations.push([
      'person',
      listed,
      withFamily(plain, `${family[0].slice(0, cut)}-${family[0].slice(cut)}`),
      1,
      'separator inside a word',
    ]);
    // Look-alikes: another family name of the culture, another given name, a family name that looks alike.
    const otherFamily = culture.family.filter((part) => part[0] !== family[0]);
    const other = pick(random, otherFamily);
    variations.push([
      'person',
      listed,
      full(culture, given[0], other[0], middle?.[0]),
      0,
      'other family name',
    ]);
    const otherGiven = pick(
      random,
      culture.given.filter((part) => part[0] !== given[0]),
    );
    variations.push([
      'person',
      listed,
      full(culture, otherGiven[0], syntheticFamily(random, culture)),
      0,
      'other person',
    ]);
    const alike = lookAlikeFamilies.find(([from]) => from === family[0]);
    if (alike !== undefined)
      variations.push(['person', listed, full(culture, given[0], alike[1], middle?.[0]), 0, 'look-alike']);
    pairs.push(...variations);
  }
}

const eol = '\n';
const directory = fileURLToPath(new URL('.', import.meta.url));
const unique = [...new Map(pairs.map((pair) => [`${pair[1]}\t${pair[2]}`, pair])).values()];
writeFileSync(
  `${directory}name-pairs.tsv`,
  `kind\tlisted\tscreened\tmatch\tvariation${eol}${unique.map((pair) => pair.join('\t')).join(eol)}${eol}`,
);

// Clean clients: people of every culture, drawn from another seed; the evaluation drops any whose
// name is identical to a listed one.
const clean = seededRandom(0xc1ea);
const cleanNames = new Set<string>();
while (cleanNames.size < 3000) {
  const culture = pick(clean, cultures);
  const given = pick(clean, culture.given)[0];
  const family = clean() < 0.5 ? pick(clean, culture.family)[0] : syntheticFamily(clean, culture);
  cleanNames.add(culture.familyFirst ? `${family} ${given}` : `${given} ${family}`);
}
writeFileSync(`${directory}clean-names.txt`, `${[...cleanNames].join(eol)}${eol}`);
console.log(
  `${unique.length} pairs (${unique.filter((pair) => pair[3] === 1).length} matches), ${cleanNames.size} clean names`,
);
