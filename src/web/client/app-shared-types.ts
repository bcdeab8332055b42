// The shared client interface's data types (plan15.md: evidence-panel.ts exports them; map-view.ts draws them),
// declared here without the DOM so the app's pure modules and their Node tests can use them. At merge they become
// re-exports of PANEL's evidence-panel.ts types (same names, same shapes).
export type LngLat = { lat: number; lon: number };
export type CompPoint = LngLat & { pin: string; label: string };
export type EvidenceView = { subject: LngLat | null; accepted: CompPoint[]; rejected: CompPoint[] };
