/**
 * A US ABA routing transit number: 9 digits whose weighted sum (weights 3, 7, 1 repeated) is a
 * multiple of 10.
 */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

export const isValidAbaRoutingNumber = (value: string): boolean => {
  if (!/^\d{9}$/.test(value)) return false;
  const sum = ABA_WEIGHTS.reduce((acc, weight, index) => acc + weight * Number(value[index]), 0);
  return sum % 10 === 0;
};
