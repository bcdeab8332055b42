// What the map draws for one evidence answer (the shared client interface of issue 15: the map view takes it,
// the evidence panel returns it). No DOM here, so server-side tests can name the types too.

export type LngLat = { lat: number; lon: number };
export type CompPoint = LngLat & { pin: string; label: string };
/** The subject and the comps of one answer (empty lists when the answer carries none). */
export type EvidenceView = { subject: LngLat | null; accepted: CompPoint[]; rejected: CompPoint[] };
