// GET /: the open web map's page. A shell only: the map, its controls and the live stream are the client bundle's
// (src/web/client/map-entry.ts, built into dist/web and served under /assets/). Everything it loads comes from this
// service: the policy allows scripts, styles, workers, images and connections from 'self' only (MapLibre's worker is
// served same-origin, so it needs no blob: worker), no inline script or style, and no framing by another site.
import { DISCLOSURE } from '../contracts/valuation.js';
import { escapeHtml } from '../valuation/calibration/html/svg.js';

export const MAP_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "worker-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // The shell names the bundles, which may change with any build: always revalidated.
  'Cache-Control': 'no-cache',
};

/** The page (UTF-8 HTML). `data:,` as icon: the browser asks for no /favicon.ico (a 404 the console would report). */
export function mapPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cook + Lake investment map</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/map.css">
<script type="module" src="/assets/map.js"></script>
</head>
<body>
<div id="map" role="region" aria-label="map"></div>
<aside id="controls" aria-label="map controls"><nav><a id="model-link" href="/model">Model: error rates and calibration</a></nav></aside>
<aside id="panel" aria-label="evidence" hidden></aside>
<footer id="disclosure">${escapeHtml(DISCLOSURE)}</footer>
</body>
</html>
`;
}
