// The open web map's page script (GET / loads it as /assets/map.js): the map view, its two choosers (tract signal,
// strategy), the owner's key, the live stream of controller records, the evidence panel on click and the consent-only
// analytics (analytics-consent.ts).
import 'maplibre-gl/dist/maplibre-gl.css';
import './map.css';
import { startAnalytics } from './analytics-consent.js';
import { fetchEvidence, ladderOutcomeOf, renderEvidence } from './evidence-panel.js';
import { openLiveStream, type StreamRecord } from './live.js';
import { SIGNALS, SIGNAL_LABELS, STRATEGIES, type Signal, type Strategy } from './map-layers.js';
import { createMapView, type MapFilters, type MapView } from './map-view.js';
import { renderLegend } from './legend.js';
import { loadOwnerState, storeKey, storedKey, type StateItem } from './owner-state.js';

const byId = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

async function fetchJson(path: string): Promise<unknown> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return res.json();
}

/** fly_to by address only: the REST door resolves the address (GET /api/property answers the subject's position). */
async function flyToAddress(view: MapView, address: string, zoom: number | undefined, status: HTMLElement): Promise<void> {
  const res = await fetch(`/api/property?${new URLSearchParams({ address })}`);
  const body = (await res.json()) as { property?: { lat?: unknown; lon?: unknown }; error?: { message?: string } };
  const { lat, lon } = body.property ?? {};
  if (typeof lat === 'number' && typeof lon === 'number') view.flyTo(lat, lon, zoom);
  else status.textContent = `fly_to ${address}: ${body.error?.message ?? 'the address has no position'}`;
}

function select<T extends string>(label: string, values: readonly T[], text: (v: T) => string, onChange: (v: T) => void): HTMLLabelElement {
  const l = document.createElement('label');
  l.textContent = label;
  const s = document.createElement('select');
  s.name = label.toLowerCase().replace(/\s+/g, '-');
  for (const v of values) s.append(new Option(text(v), v));
  s.addEventListener('change', () => onChange(s.value as T));
  l.append(s);
  return l;
}

/**
 * A record the log already held when this page first connected is history (the stream's first replay): an old fly_to
 * would override the view the page was opened on, so none of it is applied; the owner's state is loaded whole anyway.
 */
function applyRecord(view: MapView, rec: StreamRecord, history: boolean, status: HTMLElement, onOwnerChange: () => void): void {
  if (history) return;
  const p = (rec.payload ?? {}) as Record<string, unknown>;
  const zoom = typeof p.zoom === 'number' ? p.zoom : undefined;
  if (rec.kind === 'fly_to' && typeof p.lat === 'number' && typeof p.lon === 'number') view.flyTo(p.lat, p.lon, zoom);
  else if (rec.kind === 'fly_to' && typeof p.address === 'string') void flyToAddress(view, p.address, zoom, status);
  else if (rec.kind === 'highlight' && Array.isArray(p.ids)) view.highlight(p.ids.map(String));
  else if (rec.kind === 'map_filters_updated') {
    view.setFilters(p as MapFilters);
    const strategy = document.querySelector<HTMLSelectElement>('select[name="strategy"]');
    if (strategy && typeof p.strategy === 'string') strategy.value = p.strategy;
  } else onOwnerChange(); // a user-state record (only the owner's key receives those)
}

function renderOwnerState(root: HTMLElement, items: StateItem[]): void {
  root.replaceChildren();
  for (const kind of ['favorite', 'note', 'profile', 'preset'] as const) {
    const mine = items.filter((i) => i.kind === kind);
    if (mine.length === 0) continue;
    const h = document.createElement('h3');
    h.textContent = `${kind}s (${mine.length})`;
    const ul = document.createElement('ul');
    for (const i of mine) {
      const li = document.createElement('li');
      const r = i.record;
      li.textContent = String(r.body ?? r.name ?? r.property_id ?? r.address ?? i.id);
      ul.append(li);
    }
    root.append(h, ul);
  }
}

function main(): void {
  const panel = byId('panel');
  const status = document.createElement('p');
  status.id = 'stream-status';
  const ownerRoot = document.createElement('section');
  ownerRoot.id = 'owner-state';
  let key = storedKey();
  const analytics = startAnalytics(document.body, { kind: 'page_view', page: 'map' });
  const view = createMapView(byId('map'), {
    hash: true,
    fetchJson,
    // the evidence panel covers the right of the map (map.css: 360 px wide, 50 px from the edge, plus padding)
    evidencePadding: { top: 60, right: 480, bottom: 60, left: 300 },
    onSelect: async (target) => {
      panel.hidden = false;
      panel.textContent = 'Loading the valuation…';
      const answer = await fetchEvidence(target, key ?? undefined);
      view.showEvidence(renderEvidence(panel, answer));
      const outcome = ladderOutcomeOf(answer);
      if (outcome) analytics.send({ kind: 'valuation_opened', outcome });
    },
  });
  (window as unknown as { avmMap: MapView }).avmMap = view; // the console's (and the browser tests') handle

  const reloadOwner = async (): Promise<void> => {
    if (!key) return renderOwnerState(ownerRoot, []);
    try {
      const items = await loadOwnerState(key);
      renderOwnerState(ownerRoot, items);
      view.setFavorites(new Set(items.filter((i) => i.kind === 'favorite').map((i) => String(i.record.property_id ?? ''))));
    } catch (e) {
      ownerRoot.textContent = `Key refused: ${(e as Error).message}`;
    }
  };
  const keyForm = document.createElement('form');
  const keyInput = document.createElement('input');
  Object.assign(keyInput, { type: 'password', name: 'key', placeholder: 'API key (kept in this browser)', autocomplete: 'off' });
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.textContent = 'Forget key';
  keyForm.append(keyInput, forget);
  keyForm.addEventListener('submit', (e) => {
    e.preventDefault();
    key = keyInput.value.trim() || null;
    storeKey(key);
    keyInput.value = '';
    void reloadOwner();
  });
  forget.addEventListener('click', () => {
    key = null;
    storeKey(null);
    void reloadOwner();
  });

  const legend = document.createElement('section');
  legend.id = 'legend';
  const showSignal = (s: Signal): void => {
    view.setTractSignal(s);
    renderLegend(legend, s, view.tractRange(s));
  };
  byId('controls').append(
    select<Signal>('Tract signal', SIGNALS, (s) => SIGNAL_LABELS[s], (s) => {
      showSignal(s);
      analytics.send({ kind: 'map_filter_changed', filter: 'tract_signal' });
    }),
    legend,
    select<Strategy>('Strategy', STRATEGIES, (s) => s, (s) => {
      view.setFilters({ strategy: s });
      analytics.send({ kind: 'map_filter_changed', filter: 'strategy' });
    }),
    keyForm, status, ownerRoot,
  );
  void view.ready.then(() => {
    renderLegend(legend, 'flip_score', view.tractRange('flip_score'));
    document.body.dataset.ready = 'true';
    openLiveStream({
      onRecord: (rec, history) => applyRecord(view, rec, history, status, () => void reloadOwner()),
      onTruncated: () => void reloadOwner(),
      onStatus: (s) => (status.textContent = `live: ${s}`),
    });
  });
  void reloadOwner();
}

main();
