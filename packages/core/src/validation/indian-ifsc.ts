/** An Indian IFSC: 4 letters (the bank), a zero, then 6 letters or digits (the branch). */
export const isValidIfsc = (value: string): boolean => /^[A-Z]{4}0[A-Z0-9]{6}$/.test(value);
