/**
 * A Mexican CLABE: 18 digits, the last a check digit. Each of the first 17 digits is multiplied by
 * 3, 7, 1 (repeated), each product taken mod 10; the check digit is (10 − sum mod 10) mod 10.
 */
const CLABE_WEIGHTS = [3, 7, 1] as const;

export const clabeCheckDigit = (first17Digits: string): number => {
  let sum = 0;
  for (let index = 0; index < 17; index += 1) {
    const weight = CLABE_WEIGHTS[index % 3] ?? 1;
    sum += (weight * Number(first17Digits[index])) % 10;
  }
  return (10 - (sum % 10)) % 10;
};

export const isValidClabe = (value: string): boolean =>
  /^\d{18}$/.test(value) && clabeCheckDigit(value.slice(0, 17)) === Number(value[17]);
