import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

/**
 * A statement sent often (a create, a claim, a batch of writes): named, so that each connection
 * parses and plans its text once and later sends only the values. The name derives from the text,
 * so two schemas (two texts) never share one; `namePrefix` tells kinds apart in
 * `pg_prepared_statements` (`okit_b_` for batched writes).
 */
export const preparedStatement = (
  text: string,
  namePrefix = 'okit_',
): ((values: unknown[]) => QueryConfig<unknown[]>) => {
  const name = `${namePrefix}${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return (values) => ({ name, text, values });
};
