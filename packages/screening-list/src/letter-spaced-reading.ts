/** Four letters or more, each a word of its own, one space apart: a word written letter by letter. */
const SPACED_LETTERS = /(?<![\p{L}\p{M}\p{N}.])\p{L}\p{M}*(?: \p{L}\p{M}*(?![\p{L}\p{M}\p{N}.])){3,}/gu;

/**
 * A name written letter by letter (`V l a d i m i r  P u t i n`, `I g o r  S e c h i n`) read as
 * the words it spells: each run of four letters or more standing alone, one space apart, is one
 * word, and a wider gap or any other separator parts words (`nameWords` read each letter as a word
 * and the name paired with nothing). A run of three is left alone: initials (`J R R Tolkien`,
 * `V A B Putin`) are read as initials. Undefined when the name has no such run.
 */
export const letterSpacedReading = (name: string): string | undefined => {
  const reading = name.replace(SPACED_LETTERS, (run) => run.replaceAll(' ', ''));
  return reading === name ? undefined : reading;
};
