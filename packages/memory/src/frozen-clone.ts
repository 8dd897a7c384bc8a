/**
 * What the memory adapters store and hand out: a structured clone, frozen all the way down. No
 * caller can change stored state through an object it passed in (it was cloned) or got back (a
 * write to a frozen object throws in strict mode), and reads cost no copy.
 */
export const frozenClone = <T>(value: T): T => deepFreeze(structuredClone(value));

const deepFreeze = <T>(value: T): T => {
  // Typed arrays cannot be frozen; a clone of one is held by no caller.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
};
