// A copy of the small corpus prepared the way a first start prepares one (hedonic model fitted) and given a champion
// calibration that displays every segment as a point (pointEverywhere), so a service over it answers every outcome of
// the display ladder: points, Tier-1 ranges, Tier-2 ranges, area context and suppressions. One copy per call.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openModelRegistry } from '../../src/registry/model-registry.js';
import { openStore } from '../../src/store/store.js';
import { runFitHedonic } from '../../src/valuation/hedonic/job.js';
import { smallCorpusDir } from './corpus.js';
import { pointEverywhere } from './scoring-corpus.js';

/** The champion's calibration version in a served corpus (what every answer's interval must name). */
export async function servedCorpusDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'avm-served-'));
  cpSync(await smallCorpusDir(), dir, { recursive: true });
  await runFitHedonic({ dataDir: dir });
  const store = openStore(dir);
  try {
    await openModelRegistry(store).submit(pointEverywhere()!, { passed: true, checks: [] });
  } finally {
    await store.close();
  }
  return dir;
}

/** Parcel-table rows of a corpus (lat, lon, recorded units, county code), for subjects drawn the way real requests come. */
export async function parcelPoints(dataDir: string): Promise<Array<{ lat: number; lon: number; units: number; county: number }>> {
  const store = openStore(dataDir);
  try {
    const t = store.readParcels().table;
    const lat = t.getChild('lat')!.toArray() as Float64Array;
    const lon = t.getChild('lon')!.toArray() as Float64Array;
    const units = t.getChild('units')!.toArray() as Uint8Array;
    const county = t.getChild('county')!.toArray() as Uint8Array;
    return Array.from(lat, (_, i) => ({ lat: lat[i], lon: lon[i], units: units[i], county: county[i] }));
  } finally {
    await store.close();
  }
}
