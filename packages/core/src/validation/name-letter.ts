/**
 * A name must hold at least one letter (Unicode category L, any script): `.`, `-`, `123`, an emoji
 * or a lone right-to-left mark names nobody, and screening such a "name" finds nothing, which
 * would let a client pass screening without a name to screen. Marks, digits, punctuation and
 * format characters around a letter are the screening's to normalize.
 */
const LETTER = /\p{L}/u;

export const NAME_WITHOUT_LETTER_MESSAGE = 'Must contain a letter';

/** True when `name` holds a letter of any script. */
export const hasLetter = (name: string): boolean => LETTER.test(name);
