/**
 * Whether two letters are neighbouring keys on a QWERTY, QWERTZ or AZERTY keyboard (`r` / `t`,
 * `i` / `u`, `g` / `v`): the letters a typing slip puts one for another. `e` for `u` or `n` for
 * `r` is no slip of the fingers, and in a name otherwise the same it is as often another name.
 */
const layouts: readonly (readonly string[])[] = [
  ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'],
  ['qwertzuiop', 'asdfghjkl', 'yxcvbnm'],
  ['azertyuiop', 'qsdfghjklm', 'wxcvbn'],
];
/** How far each row of keys is shifted right of the one above, in keys. */
const ROW_OFFSETS = [0, 0.25, 0.75];

const neighbours = new Set<string>();
for (const rows of layouts) {
  const keys: { readonly letter: string; readonly x: number; readonly row: number }[] = [];
  rows.forEach((row, at) => {
    for (const [x, letter] of [...row].entries())
      keys.push({ letter, x: x + (ROW_OFFSETS[at] as number), row: at });
  });
  for (const a of keys) {
    for (const b of keys) {
      const rows = Math.abs(a.row - b.row);
      const across = Math.abs(a.x - b.x);
      if ((rows === 0 && across === 1) || (rows === 1 && across <= 1)) neighbours.add(a.letter + b.letter);
    }
  }
}

export const areKeyboardNeighbours = (a: string, b: string): boolean => neighbours.has(a + b);
