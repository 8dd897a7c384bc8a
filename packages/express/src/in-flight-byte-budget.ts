/** Where a body's bytes are counted: the file its link writes, the link's owner, the whole process. */
export type InFlightScope = 'link' | 'owner' | 'process';

export type InFlightByteLimits = {
  /** Bytes of bodies in flight to one link (one owner's one filename) at once. */
  readonly perLinkBytes: number;
  /** Bytes of bodies in flight to all the links of one owner at once. */
  readonly perOwnerBytes: number;
  /** Bytes of bodies in flight through the router at once. */
  readonly perProcessBytes: number;
};

export type InFlightReservation =
  | { readonly type: 'Reserved'; readonly release: () => void }
  | { readonly type: 'Refused'; readonly scope: InFlightScope; readonly limitBytes: number };

/**
 * Bytes of request bodies being received (and held until answered), counted per link, per owner
 * and in all. A body reserves what it announces before a byte of it is read, and releases it once
 * (success, refusal, abort or timeout alike), so many slow partial bodies cannot add up.
 */
export type InFlightByteBudget = {
  reserve(bytes: number, at: { readonly link: string; readonly owner: string }): InFlightReservation;
  /** Bytes reserved now: in all, and how many links and owners hold any (0 when idle). */
  inFlight(): { readonly bytes: number; readonly links: number; readonly owners: number };
  readonly limits: InFlightByteLimits;
};

const add = (counts: Map<string, number>, key: string, bytes: number): void => {
  const next = (counts.get(key) ?? 0) + bytes;
  // A key at zero is dropped: an idle budget holds nothing, however many links it has seen.
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
};

/** A budget with these limits: one per process, shared by every router that reads bodies into memory. */
export const createInFlightByteBudget = (limits: InFlightByteLimits): InFlightByteBudget => {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(
        `createInFlightByteBudget: ${name} must be a positive whole number of bytes, not ${value}`,
      );
    }
  }
  const perLink = new Map<string, number>();
  const perOwner = new Map<string, number>();
  let total = 0;
  return {
    limits,
    reserve: (bytes, { link, owner }) => {
      if ((perLink.get(link) ?? 0) + bytes > limits.perLinkBytes) {
        return { type: 'Refused', scope: 'link', limitBytes: limits.perLinkBytes };
      }
      if ((perOwner.get(owner) ?? 0) + bytes > limits.perOwnerBytes) {
        return { type: 'Refused', scope: 'owner', limitBytes: limits.perOwnerBytes };
      }
      if (total + bytes > limits.perProcessBytes) {
        return { type: 'Refused', scope: 'process', limitBytes: limits.perProcessBytes };
      }
      add(perLink, link, bytes);
      add(perOwner, owner, bytes);
      total += bytes;
      let released = false;
      return {
        type: 'Reserved',
        release: () => {
          if (released) return;
          released = true;
          add(perLink, link, -bytes);
          add(perOwner, owner, -bytes);
          total -= bytes;
        },
      };
    },
    inFlight: () => ({ bytes: total, links: perLink.size, owners: perOwner.size }),
  };
};

/**
 * The defaults for uploads of at most `maxUploadBytes` each: one upload per link, four per owner,
 * eight in the process (about 200 MiB at the default 25 MiB + 1 KiB).
 */
export const defaultInFlightByteLimits = (maxUploadBytes: number): InFlightByteLimits => ({
  perLinkBytes: maxUploadBytes,
  perOwnerBytes: 4 * maxUploadBytes,
  perProcessBytes: 8 * maxUploadBytes,
});
