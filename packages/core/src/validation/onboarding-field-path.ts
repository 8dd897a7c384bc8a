import type { z } from 'zod';
import { MAX_ARRAY_ITEMS } from '../schemas/onboarding-payloads.js';

/**
 * A JSON path of an onboarding payload, written as `parameterErrors` writes them:
 * `profile.idDocuments[0]`, `companyDirectorsAndUbos.ubos[1].name`. Only plain names and decimal
 * indexes (no leading zero): the payloads have no other keys.
 */
const SEGMENT = /\.?([A-Za-z_][A-Za-z0-9_]*)|\[(0|[1-9][0-9]{0,8})\]/y;

/** `profile.idDocuments[0]` → `['profile', 'idDocuments', 0]`; null when it is not such a path. */
export const parseOnboardingPath = (path: string): (string | number)[] | null => {
  const segments: (string | number)[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const at = SEGMENT.lastIndex;
    const match = SEGMENT.exec(path);
    if (match === null) return null;
    const [whole, name, index] = match;
    // A name starts the path without a dot and follows anything else with one.
    if (name !== undefined && whole.startsWith('.') === (at === 0)) return null;
    segments.push(name ?? Number(index));
  }
  return segments.length > 0 && typeof segments[0] === 'string' ? segments : null;
};

export const isOnboardingPathSyntax = (path: string): boolean => parseOnboardingPath(path) !== null;

/** The schemas a value may match at this point: wrappers unwrapped, every union option. */
const candidates = (schema: z.core.$ZodType): z.core.$ZodType[] => {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return candidates((def as z.core.$ZodOptionalDef).innerType);
    case 'pipe':
      return candidates((def as z.core.$ZodPipeDef).in);
    case 'union':
      return (def as z.core.$ZodUnionDef).options.flatMap(candidates);
    default:
      return [schema];
  }
};

const child = (schema: z.core.$ZodType, segment: string | number): z.core.$ZodType | undefined => {
  const def = schema._zod.def;
  if (typeof segment === 'number') {
    // Indexes are checked against the payload type, whose arrays hold at most MAX_ARRAY_ITEMS.
    return def.type === 'array' && segment < MAX_ARRAY_ITEMS
      ? (def as z.core.$ZodArrayDef).element
      : undefined;
  }
  if (def.type !== 'object') return undefined;
  const { shape } = def as z.core.$ZodObjectDef;
  return Object.hasOwn(shape, segment) ? shape[segment] : undefined;
};

/**
 * Whether `path` names a field (or a section, or an item of a list) of the payload `schema`
 * describes. A union (a UBO is NATURAL or LEGAL) accepts a field of any of its options.
 */
export const namesPayloadField = (schema: z.core.$ZodType, path: string): boolean => {
  const segments = parseOnboardingPath(path);
  if (segments === null) return false;
  let at = [schema];
  for (const segment of segments) {
    at = at.flatMap(candidates).flatMap((node) => {
      const next = child(node, segment);
      return next === undefined ? [] : [next];
    });
    if (at.length === 0) return false;
  }
  return true;
};
