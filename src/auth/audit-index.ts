// The per-key index of the audit records (issue 16 item 2: an owner reads their keys' records).
/**
 * Audit records are keyed by time (`a:<at>:<key id>:<n>`, for the sweep and the operator); each is also written under
 * `k:<key id>:<at>:<n>` so an owner's view of one key is a short range read, not a scan of every key's records.
 * Records written before the index existed are indexed once by the first sweep (INDEXED_MARK).
 */
export const keyIndexOf = (aKey: string): string => {
  const parts = aKey.split(':');
  const n = parts.at(-1);
  const keyId = parts.at(-2);
  return `k:${keyId}:${parts.slice(1, -2).join(':')}:${n}`;
};
export const INDEXED_MARK = 'x:key-index-v1';
