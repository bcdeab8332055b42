// Build-time only: derives every file of data/reference from the raw public files. Called by
// scripts/derive-reference.ts and by the determinism test; the running service never imports this folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deriveNeighborhoods, deriveTownships } from './geometry.js';
import { derivePinAreaTownships } from './pin-areas.js';
import { derivePriceLevels } from './price-levels.js';
import { deriveAreaDispersion, deriveChicagoTracts, deriveNbhdSales } from './real-sales.js';
import {
  deriveClassCodes, deriveCookCountyLevel, deriveDeedTypes, deriveEqualizationFactors, deriveLevelsOfAssessment,
  deriveMuniTaxRates, deriveNeighborhoodGroups, deriveZipCentroids,
} from './tables.js';

export const REFERENCE_FILES = [
  'neighborhoods.geojson', 'townships.geojson', 'zip_centroids.csv', 'muni_tax_rates.csv', 'cook_county_level.csv',
  'equalization_factors.csv', 'levels_of_assessment.csv', 'class_codes.csv', 'deed_types.csv', 'price_levels.json',
  'pin_area_townships.csv', 'neighborhood_groups.csv', 'nbhd_sales.csv', 'chicago_tracts.csv', 'area_dispersion.csv',
] as const;

/**
 * JSON with one-space indent whose all-digit keys print in string order: JS objects list integer-like keys ('10')
 * before others ('01'), which would put PIN area 10 ahead of 01 in the file.
 */
export function stableJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + ' ';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + stableJson(v, inner)).join(',\n')}\n${indent}]`;
  let keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  if (keys.every((k) => /^\d+$/.test(k))) keys = [...keys].sort();
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${stableJson((value as Record<string, unknown>)[k], inner)}`).join(',\n')}\n${indent}}`;
}

export type DeriveSummary = { files: Record<string, number>; notes: Record<string, unknown> };

/** Writes every reference file into outDir (created if needed) and returns byte sizes and derivation notes. */
export function deriveReference(rawDir: string, outDir: string): DeriveSummary {
  if (!existsSync(join(rawDir, 'SOURCES.md'))) throw new Error(`raw data folder not found (no SOURCES.md): ${rawDir}`);
  mkdirSync(outDir, { recursive: true });
  const files: Record<string, number> = {};
  const write = (name: (typeof REFERENCE_FILES)[number], text: string) => {
    writeFileSync(join(outDir, name), text);
    files[name] = Buffer.byteLength(text);
  };
  const nbhd = deriveNeighborhoods(rawDir);
  write('neighborhoods.geojson', nbhd.text);
  const town = deriveTownships(rawDir);
  write('townships.geojson', town.text);
  write('zip_centroids.csv', deriveZipCentroids(rawDir));
  write('muni_tax_rates.csv', deriveMuniTaxRates(rawDir));
  write('cook_county_level.csv', deriveCookCountyLevel(rawDir));
  const eq = deriveEqualizationFactors(rawDir);
  write('equalization_factors.csv', eq.text);
  write('levels_of_assessment.csv', deriveLevelsOfAssessment(rawDir));
  write('class_codes.csv', deriveClassCodes(rawDir));
  write('deed_types.csv', deriveDeedTypes(rawDir));
  const levels = derivePriceLevels(readFileSync(join(rawDir, 'cmfproperty', 'example_data.csv'), 'utf8'));
  write('price_levels.json', stableJson(levels) + '\n');
  const pin = derivePinAreaTownships(rawDir);
  write('pin_area_townships.csv', pin.text);
  const nbhdCodes = new Set((JSON.parse(nbhd.text) as { features: Array<{ properties: { town_nbhd: string } }> }).features.map((f) => f.properties.town_nbhd));
  const groups = deriveNeighborhoodGroups(rawDir, nbhdCodes);
  write('neighborhood_groups.csv', groups.text);
  write('nbhd_sales.csv', deriveNbhdSales(rawDir));
  write('chicago_tracts.csv', deriveChicagoTracts(rawDir));
  write('area_dispersion.csv', deriveAreaDispersion(rawDir));
  return {
    files,
    notes: { neighborhoods: nbhd.stats, townships: town.stats, equalizationCrossCheck: eq.crossCheck, pinAreas: pin.stats, neighborhoodGroups: groups.check },
  };
}
