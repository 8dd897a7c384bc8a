/** A UK sort code: exactly 6 digits, without the usual `12-34-56` separators (the wire format). */
export const isValidSortCode = (value: string): boolean => /^\d{6}$/.test(value);
