/** Figures as the OpenAPI document and error reasons write them: `15 minutes`, `1 MiB`, `10,000`. */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** A duration in the largest unit that divides it: `3 days`, `24 hours`, `1 minute`, `1500 ms`. */
export const durationLabel = (ms: number): string => {
  if (ms >= 2 * DAY && ms % DAY === 0) return plural(ms / DAY, 'day');
  if (ms >= HOUR && ms % HOUR === 0) return plural(ms / HOUR, 'hour');
  if (ms >= MINUTE && ms % MINUTE === 0) return plural(ms / MINUTE, 'minute');
  if (ms >= SECOND && ms % SECOND === 0) return plural(ms / SECOND, 'second');
  return `${ms} ms`;
};

/** A byte count in MiB when it is whole MiB, else in bytes. */
export const bytesLabel = (bytes: number): string =>
  bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes} bytes`;

/** A count with thousands separated by commas, whatever the process's locale. */
export const countLabel = (count: number): string => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
