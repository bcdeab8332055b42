// The real reference facts the generator builds on (neighborhood polygons, ZIP centroids, yearly price levels, PIN
// areas, real neighborhood sales, Chicago tract points, within-area price spread), read through src/reference/load.ts from data/reference. Never reads ../shared.
import { loadAreaDispersion, loadChicagoTracts, loadNbhdSales, loadNeighborhoods, loadPinAreaTownships, loadPriceLevels, loadZipCentroids } from '../../reference/load.js';
import type { AreaDispersion, ChicagoTract, NbhdYearSales, PinAreaTownship, PriceLevels, FeatureCollection, NeighborhoodProps, ZipCentroid } from '../../reference/types.js';

export type GenReference = {
  neighborhoods: FeatureCollection<NeighborhoodProps>;
  zips: ZipCentroid[];
  priceLevels: PriceLevels;
  pinAreas: PinAreaTownship[];
  /** Real class-2 sales count and median per neighborhood and year, 2012-2022. */
  nbhdSales: NbhdYearSales[];
  /** The real Cook GEOIDs and internal points of the City of Chicago's census tracts. */
  chicagoTracts: ChicagoTract[];
  /** Real within-PIN-area spread of non-condo sale prices (the realism report's yardstick). */
  areaDispersion: AreaDispersion[];
};

/** Reads the reference files the generator needs (cached by the loader). */
export function loadGenReference(): GenReference {
  return {
    neighborhoods: loadNeighborhoods(), zips: loadZipCentroids(), priceLevels: loadPriceLevels(), pinAreas: loadPinAreaTownships(),
    nbhdSales: loadNbhdSales(), chicagoTracts: loadChicagoTracts(), areaDispersion: loadAreaDispersion(),
  };
}

/** Real yearly Cook non-condo medians by year (only years with a value). */
export function countyMedianByYear(levels: PriceLevels): Map<number, number> {
  const out = new Map<number, number>();
  for (const [year, group] of Object.entries(levels.county)) {
    const m = group.noncondo?.median;
    if (/^\d{4}$/.test(year) && m !== undefined && m > 0) out.set(Number(year), m);
  }
  return out;
}

/**
 * Price level of each PIN area relative to the county, as a log ratio: the sales-weighted mean over the years of
 * ln(area median / county median), non-condo sales. Also returns each area's total sales count (activity weight).
 */
export function areaRelativeLevels(levels: PriceLevels): Map<string, { relLog: number; salesN: number }> {
  const county = countyMedianByYear(levels);
  const out = new Map<string, { relLog: number; salesN: number }>();
  for (const [area, byYear] of Object.entries(levels.by_area)) {
    let sw = 0, s = 0, n = 0;
    for (const [year, group] of Object.entries(byYear)) {
      const st = group.noncondo;
      const cm = county.get(Number(year));
      if (!st || cm === undefined || !(st.median > 0)) continue;
      s += st.n * Math.log(st.median / cm);
      sw += st.n;
    }
    for (const [year, group] of Object.entries(byYear)) {
      if (/^\d{4}$/.test(year)) n += group.all?.n ?? (group.noncondo?.n ?? 0) + (group.condo?.n ?? 0);
    }
    if (sw > 0) out.set(area, { relLog: s / sw, salesN: n });
  }
  return out;
}
