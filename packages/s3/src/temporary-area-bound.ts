import type { UploadLinkMarker } from './s3-object-keys.js';

/**
 * The per-owner bound of the temporary area on S3, as pure arithmetic over one listing of the
 * owner's folder. S3 cannot refuse an upload for the owner's total (a presigned POST bounds only its
 * own file), so the bound is kept where the links are issued: every link leaves a marker naming its
 * file, its expiry and the most bytes its policy takes, and a name holds, until its upload and its
 * links expire, the most it can come to (its stored size, or a live link's bytes, whichever is
 * larger). A new batch is refused when the names held would pass `maxFiles`; otherwise each new link
 * takes an equal share of the bytes left (at most `maxUploadBytes`), so the stored bytes cannot pass
 * `maxBytes` whatever the caller uploads. With the defaults (100 files, 256 MiB, 25 MiB a file) a
 * batch of up to 10 names gets 25 MiB links on an empty area, one of 50 names about 5 MiB each.
 */
export type TemporaryAreaBound = {
  readonly maxFiles: number;
  readonly maxBytes: number;
  readonly maxUploadBytes: number;
  /** How long an upload counts (core's 24 h: after it the file is neither listed nor usable). */
  readonly fileTtlMs: number;
};

/** A file as listed, named as its markers name it (`filenameDigest`). */
export type ListedTemporaryFile = {
  readonly filenameDigest: string;
  readonly size: number;
  readonly uploadedAtMs: number;
};

/** What one listing of an owner's folder shows: its files and its link markers (with their keys). */
export type TemporaryAreaListing = {
  readonly files: readonly ListedTemporaryFile[];
  readonly links: readonly (UploadLinkMarker & { readonly key: string })[];
};

/** The names the owner holds now, each with its bytes, and when the first thing counted expires. */
export const heldByName = (listing: TemporaryAreaListing, bound: TemporaryAreaBound, nowMs: number) => {
  const held = new Map<string, number>();
  let firstExpiryMs = Number.POSITIVE_INFINITY;
  const hold = (filename: string, bytes: number, untilMs: number) => {
    if (untilMs <= nowMs) return;
    held.set(filename, Math.max(held.get(filename) ?? 0, bytes));
    firstExpiryMs = Math.min(firstExpiryMs, untilMs);
  };
  for (const file of listing.files) hold(file.filenameDigest, file.size, file.uploadedAtMs + bound.fileTtlMs);
  for (const link of listing.links) hold(link.filenameDigest, link.maxBytes, link.expiresAtMs);
  let bytes = 0;
  for (const size of held.values()) bytes += size;
  return { held, bytes, firstExpiryMs };
};

export type LinkRoom =
  | { readonly fits: true; readonly maxBytesPerLink: number }
  | { readonly fits: false; readonly retryAfterMs: number };

/** Whether links for the files `filenameDigests` name fit, and how many bytes each may then take. */
export const roomForLinks = (
  listing: TemporaryAreaListing,
  filenameDigests: readonly string[],
  bound: TemporaryAreaBound,
  nowMs: number,
): LinkRoom => {
  const { held, bytes, firstExpiryMs } = heldByName(listing, bound, nowMs);
  const asked = [...new Set(filenameDigests)];
  const others = [...held.keys()].filter((filename) => !asked.includes(filename)).length;
  // A name asked again keeps what it holds (its upload, its earlier links) and holds the new link's
  // bytes if they are more: the largest share whose total stays within the bound (a binary search).
  const othersBytes = bytes - asked.reduce((sum, filename) => sum + (held.get(filename) ?? 0), 0);
  const totalWith = (share: number) =>
    asked.reduce((sum, filename) => sum + Math.max(held.get(filename) ?? 0, share), othersBytes);
  let low = 0;
  let high = bound.maxUploadBytes;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (totalWith(middle) <= bound.maxBytes) low = middle;
    else high = middle - 1;
  }
  const maxBytesPerLink = low;
  if (others + asked.length <= bound.maxFiles && maxBytesPerLink >= 1) return { fits: true, maxBytesPerLink };
  const retryAfterMs = Number.isFinite(firstExpiryMs) ? firstExpiryMs - nowMs : bound.fileTtlMs;
  return { fits: false, retryAfterMs };
};

/** After the markers are written: whether the owner still holds no more than its bound (a racing batch may not). */
export const withinBound = (
  listing: TemporaryAreaListing,
  bound: TemporaryAreaBound,
  nowMs: number,
): boolean => {
  const { held, bytes } = heldByName(listing, bound, nowMs);
  return held.size <= bound.maxFiles && bytes <= bound.maxBytes;
};
