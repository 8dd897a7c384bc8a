/**
 * SQL that renders a timestamptz column as the kit writes instants (`Date#toISOString`: UTC,
 * milliseconds, `Z`), so rows can be read as wire strings without a Date round trip in Node.
 */
export const isoTimestampSql = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
