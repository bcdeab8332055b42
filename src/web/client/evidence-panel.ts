// PLACEHOLDER for the PANEL helper's module (issue 15 item 3; plan15.md "Shared client interfaces"): the lead replaces
// this file with PANEL's at merge. Same exports and types; it shows the REST answer's disclosure and error message
// only, and reads the subject's position from the answer's own fields (nothing invented).
export type LngLat = { lat: number; lon: number };
export type CompPoint = LngLat & { pin: string; label: string };
export type EvidenceView = { subject: LngLat | null; accepted: CompPoint[]; rejected: CompPoint[] };

/** Same-origin GET /api/property for a listing id or a point; the body whatever the status. */
export async function fetchEvidence(target: { property_id: string } | LngLat, key?: string): Promise<unknown> {
  const q = 'property_id' in target ? new URLSearchParams({ property_id: target.property_id }) : new URLSearchParams({ lat: String(target.lat), lon: String(target.lon) });
  const res = await fetch(`/api/property?${q}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return res.json();
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Minimal rendering until PANEL's module lands: the error message or the disclosure, as text. */
export function renderEvidence(root: HTMLElement, answer: unknown): EvidenceView {
  root.replaceChildren();
  const p = document.createElement('p');
  const err = isObj(answer) && isObj(answer.error) ? answer.error : null;
  p.textContent = err ? String(err.message ?? err.code) : isObj(answer) && typeof answer.disclosure === 'string' ? answer.disclosure : 'no answer';
  root.append(p);
  return { subject: null, accepted: [], rejected: [] };
}
