/**
 * The order of every list the ports return (clients, preset fees): newest `createdAt` first, ties
 * by id descending in plain code-unit order (what the client list cursor relies on, and what
 * PostgreSQL's `ORDER BY created_at DESC, id DESC` gives for UUIDs).
 */
export const newestFirst = (
  a: { readonly createdAt: string; readonly id: string },
  b: { readonly createdAt: string; readonly id: string },
): number => {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
};
