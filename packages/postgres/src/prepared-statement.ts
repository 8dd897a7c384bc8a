import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

/**
 * A statement sent often (a create, a claim): named, so that each connection parses and plans its
 * text once and later sends only the values. The name derives from the text, so two schemas (two
 * texts) never share one.
 */
export const preparedStatement = (text: string): ((values: unknown[]) => QueryConfig<unknown[]>) => {
  const name = `okit_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return (values) => ({ name, text, values });
};
