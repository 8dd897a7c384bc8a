/**
 * Company legal forms and their abbreviations in the main languages, each folded to one symbol of
 * its family: `Siemens AG` and `Siemens Aktiengesellschaft`, `Stripe LLC` and `Stripe Limited
 * Liability Company`, `ООО Ромашка` and `Romashka LLC` then differ by nothing. The symbol weighs
 * little in a name's score (`LEGAL_FORM_WEIGHT`): a legal form says almost nothing of who a company is.
 *
 * Written as the normalized words (normalize-name.ts) they become: `S.A.` is `sa`, `Sp. z o.o.` is
 * `sp z oo`, ООО is `ooo`, общество с ограниченной ответственностью its transliteration.
 */
const families: Readonly<Record<string, readonly string[]>> = {
  // Private companies with limited liability.
  llc: [
    'llc',
    'l l c',
    'limited liability company',
    'limited liability co',
    'ooo',
    'obshchestvo s ogranichennoy otvetstvennostyu',
    'obshchestvo s ogranichennoi otvetstvennostiu',
    'obshchestvo s ogranichennoy otvetstvennostyu',
    'tovarystvo z obmezhenoiu vidpovidalnistiu',
    'tovaristvo z obmezhenoyu vidpovidalnistyu',
    'ood',
    'eood',
    'tov',
    'gmbh',
    'gesellschaft mit beschrankter haftung',
    'sarl',
    'societe a responsabilite limitee',
    'srl',
    'societa a responsabilita limitata',
    'sociedad de responsabilidad limitada',
    'sl',
    'sociedad limitada',
    'ltda',
    'limitada',
    'sro',
    'spolecnost s rucenim omezenym',
    'sp z oo',
    'spolka z ograniczona odpowiedzialnoscia',
    'bv',
    'besloten vennootschap',
    'kft',
    'doo',
    'eurl',
    'sarl unipersonnelle',
  ],
  ltd: [
    'ltd',
    'limited',
    'private limited company',
    'private limited',
    'pvt ltd',
    'pte ltd',
    'pty ltd',
    'proprietary limited',
    'pt',
    'sdn bhd',
    'sendirian berhad',
    'perseroan terbatas',
  ],
  // Companies with shares: joint-stock, public limited, anonymous societies.
  jsc: [
    'jsc',
    'joint stock company',
    'joint-stock company',
    'ojsc',
    'cjsc',
    'pjsc',
    'public joint stock company',
    'open joint stock company',
    'closed joint stock company',
    'ao',
    'oao',
    'zao',
    'pao',
    'aktsionernoe obshchestvo',
    'aktsionernoye obshchestvo',
    'publichnoe aktsionernoe obshchestvo',
    'publichnoye aktsionernoye obshchestvo',
    'zakrytoe aktsionernoe obshchestvo',
    'zakrytoye aktsionernoye obshchestvo',
    'otkrytoe aktsionernoe obshchestvo',
    'otkrytoye aktsionernoye obshchestvo',
    'publichne aktsionerne tovarystvo',
    'zrt',
    'nyrt',
    'a s',
    'bhd',
    'berhad',
    'sa de cv',
    'sab de cv',
    'kgaa',
    'kommanditgesellschaft auf aktien',
    'ag',
    'aktiengesellschaft',
    'sa',
    's a',
    'societe anonyme',
    'sociedad anonima',
    'sociedade anonima',
    'spa',
    'societa per azioni',
    'nv',
    'naamloze vennootschap',
    'as',
    'asa',
    'aktieselskab',
    'ab',
    'aktiebolag',
    'oy',
    'oyj',
    'plc',
    'public limited company',
    'sas',
    'societe par actions simplifiee',
    'se',
    'societas europaea',
    'kk',
    'kabushiki kaisha',
    'kabushikigaisha',
    'ad',
    'dd',
    'tbk',
  ],
  inc: ['inc', 'incorporated', 'corp', 'corporation'],
  co: ['co', 'company', 'cie', 'compagnie', 'cia', 'compania'],
  lp: [
    'lp',
    'limited partnership',
    'llp',
    'limited liability partnership',
    'kg',
    'kommanditgesellschaft',
    'gmbh co kg',
    'ohg',
    'snc',
  ],
};

/** The symbol a legal form becomes: a word no name can contain (normalized words are a–z and 0–9). */
export const legalFormSymbol = (family: string): string => `#${family}`;
export const isLegalForm = (word: string): boolean => word.startsWith('#');

/** A legal form weighs this against a word's rarity weight (1 for the most common word, more for rarer). */
export const LEGAL_FORM_WEIGHT = 0.3;

type Trie = { symbol?: string; readonly next: Map<string, Trie> };
const trie: Trie = { next: new Map() };
for (const [family, forms] of Object.entries(families)) {
  for (const form of forms) {
    let node = trie;
    for (const word of form.split(/[\s-]+/)) {
      let next = node.next.get(word);
      if (next === undefined) {
        next = { next: new Map() };
        node.next.set(word, next);
      }
      node = next;
    }
    node.symbol ??= legalFormSymbol(family);
  }
}

/**
 * The words of a company's name with every legal form (the longest that fits, anywhere in the
 * name: `OOO Romashka`, `Romashka LLC`) replaced by its family's symbol. A name that would be a
 * legal form alone (`Limited`) is kept as it is.
 */
export const foldLegalForms = (words: readonly string[]): string[] => {
  const folded: string[] = [];
  let at = 0;
  while (at < words.length) {
    let node: Trie | undefined = trie;
    let symbol: string | undefined;
    let length = 0;
    for (let ahead = at; ahead < words.length && node !== undefined; ahead += 1) {
      node = node.next.get(words[ahead] as string);
      if (node?.symbol !== undefined) {
        symbol = node.symbol;
        length = ahead - at + 1;
      }
    }
    if (symbol === undefined || length === words.length) {
      folded.push(words[at] as string);
      at += 1;
    } else {
      folded.push(symbol);
      at += length;
    }
  }
  return folded;
};
