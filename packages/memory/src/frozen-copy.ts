/**
 * A deep copy that can no longer change: stored values are copied once on the way in and handed
 * out as they are, so no caller can alter stored state through an object it passed or received
 * (a write to a frozen object throws in strict mode) and reads cost no copy.
 */
export const frozenCopy = <T>(value: T): T => {
  const copy = structuredClone(value);
  if (copy !== null && typeof copy === 'object') deepFreeze(copy);
  return copy;
};

// Indexed loops and for…in: no array of values is allocated per object on this hot path.
const deepFreeze = (value: object): void => {
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const child: unknown = value[index];
      if (child !== null && typeof child === 'object') deepFreeze(child);
    }
    return;
  }
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') deepFreeze(child);
  }
};
