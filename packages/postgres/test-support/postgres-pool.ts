import pg from 'pg';

export type { Pool } from 'pg';

/** A node-postgres pool, for scripts outside the package (bench/) that cannot resolve `pg` themselves. */
export const createPool = (
  connectionString: string,
  max = 10,
  options: { pipeline?: boolean } = {},
): pg.Pool => new pg.Pool({ connectionString, max, ...options });
