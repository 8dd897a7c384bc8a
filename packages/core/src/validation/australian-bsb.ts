/** An Australian BSB (bank-state-branch) number: exactly 6 digits, without the usual `123-456` separator. */
export const isValidBsb = (value: string): boolean => /^\d{6}$/.test(value);
