// The owner's own state on the map: an API key pasted once is kept in this browser (localStorage) and sent as a
// Bearer token to GET /api/state, which answers the key owner's favourites, notes, presets and profiles (newest write
// first, paginated). The key never leaves this origin.
export type StateItem = { kind: 'favorite' | 'note' | 'preset' | 'profile'; id: string; seq: number; record: Record<string, unknown> };

const KEY_STORAGE = 'avm.map.key';
/** Pages read per load: the state is small; a bound keeps a runaway cursor from looping. */
const MAX_PAGES = 20;

export const storedKey = (): string | null => localStorage.getItem(KEY_STORAGE);
export function storeKey(key: string | null): void {
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
}

/** Every state item of the key's owner; throws with the service's error message on a refusal (a bad key: 401). */
export async function loadOwnerState(key: string): Promise<StateItem[]> {
  const items: StateItem[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({ limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const res = await fetch(`/api/state?${q}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { items?: StateItem[]; next_cursor?: string | null; error?: { message?: string } };
    if (!res.ok) throw new Error(body.error?.message ?? `GET /api/state answered ${res.status}`);
    items.push(...(body.items ?? []));
    cursor = body.next_cursor ?? null;
    if (!cursor) break;
  }
  return items;
}
