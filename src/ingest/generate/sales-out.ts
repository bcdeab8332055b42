// Where generated sales go: Cook rows to the CCAO Parcel Sales layout, Lake rows to the Lake GIS sales layout, and
// every row's ground truth to truth/sales_truth.csv (a folder the serving path never reads).
import { join } from 'node:path';
import { CCAO_SALES, LAKE_GIS_SALES } from '../layouts.js';
import { CsvOut, headerFor } from './csv-out.js';
import { isoOfDay, yearOfDay } from '../../store/days.js';
import { PT_CONDO, PT_MF } from './buildings.js';
import type { ParcelTable } from './parcels.js';
import { CONDITION_NAMES } from './surface.js';
import type { GenTract } from './tracts.js';

export type DefectKind = 'none' | 'quitclaim' | 'non_arms_deed' | 'under_10k' | 'multi_parcel' | 'duplicate' | 'rapid_resale';
export type FlipRole = '' | 'buy' | 'resale';

export type SaleRec = {
  parcel: number;
  day: number;
  priceUsd: number;
  /** The arms-length sale whose price a duplicate or rapid resale copies (its price follows that sale's value). */
  copies?: SaleRec;
  /** CCAO open-data deed text: Warranty, Trustee, Quit Claim, Executor, Other, Beneficiary. */
  deed: string;
  numParcels: number;
  docNo: string;
  cond: number;
  trueValueUsd: number;
  trueArvUsd: number;
  trueRentUsd: number;
  arms: boolean;
  defect: DefectKind;
  flipRole: FlipRole;
};

export const TRUTH_COLUMNS = [
  'row_id', 'county', 'pin', 'sale_date', 'sale_price', 'true_value', 'true_arv', 'true_rent', 'is_arms_length', 'defect',
  'flip_role', 'condition', 'census_tract_geoid', 'units', 'property_type',
] as const;
const CCAO_FILLED = ['row_id', 'sale_condition'];
const LAKE_FILLED = ['BLDG_SQFT', 'BEDROOMS', 'YEAR_BUILT', 'UNITS', 'CONDITION', 'MULTI_PARCEL', 'NUM_PARCELS', 'DOC_NUM'];
const CONDITION_COLUMNS = ['sale_condition', 'CONDITION'];
const without = (cols: readonly string[], drop: boolean): string[] => cols.filter((c) => !drop || !CONDITION_COLUMNS.includes(c));
const LAKE_CLASS_TEXT = ['Single Family', 'Multi Family 2-4', 'Condominium'];
const PTYPE_TEXT = ['sfh', 'mf2_4', 'condo'];

export class SalesOut {
  readonly cook: CsvOut;
  readonly lake: CsvOut;
  readonly truth: CsvOut;
  private cookSeq = 0;
  private lakeSeq = 0;
  readonly byDefect = new Map<string, number>();

  /** Every sale emitted, for the realism report: parcel, day, price and whether it is arms-length. */
  readonly log: { parcel: number[]; day: number[]; price: number[]; arms: boolean[] } = { parcel: [], day: [], price: [], arms: [] };

  /** `exportCondition` false leaves the condition columns out of the exported sales (as in a real export). */
  constructor(
    rawDir: string, truthPath: string, private readonly p: ParcelTable, private readonly tracts: readonly GenTract[], private readonly zipOf: readonly string[],
    private readonly exportCondition: boolean,
  ) {
    this.cook = new CsvOut(join(rawDir, CCAO_SALES.file), headerFor(CCAO_SALES, without(CCAO_FILLED, !exportCondition)));
    this.lake = new CsvOut(join(rawDir, LAKE_GIS_SALES.file), headerFor(LAKE_GIS_SALES, without(LAKE_FILLED, !exportCondition)));
    this.truth = new CsvOut(truthPath, TRUTH_COLUMNS);
  }

  emit(s: SaleRec): void {
    const i = s.parcel, t = this.tracts[this.p.tract[i]];
    const date = isoOfDay(s.day);
    const cond = CONDITION_NAMES[s.cond];
    let rowId: string;
    if (t.county === 'cook') {
      rowId = `C${String(++this.cookSeq).padStart(9, '0')}`;
      const row: Array<string | number> = [this.p.pin[i], yearOfDay(s.day), t.townshipCode, t.townNbhd, this.p.cls[i], date, s.priceUsd, s.docNo, s.deed, s.numParcels, rowId];
      if (this.exportCondition) row.push(cond);
      this.cook.row(row);
    } else {
      rowId = `L${String(++this.lakeSeq).padStart(9, '0')}`;
      const pt = this.p.ptype[i];
      const row: Array<string | number> = [
        this.p.pin[i], date, s.priceUsd, s.deed, LAKE_CLASS_TEXT[pt], this.p.lat[i].toFixed(6), this.p.lon[i].toFixed(6), this.zipOf[this.p.tract[i]],
        this.p.sqft[i], this.p.beds[i], this.p.yearBuilt[i], this.p.units[i],
      ];
      if (this.exportCondition) row.push(cond);
      row.push(s.numParcels > 1 ? 'Y' : 'N', s.numParcels, rowId);
      this.lake.row(row);
    }
    const pt = this.p.ptype[i];
    this.truth.row([
      rowId, t.county, this.p.pin[i], date, s.priceUsd, Math.round(s.trueValueUsd), Math.round(s.trueArvUsd), s.trueRentUsd, s.arms ? 1 : 0,
      s.defect, s.flipRole, cond, t.geoid, this.p.units[i], PTYPE_TEXT[pt === PT_MF ? 1 : pt === PT_CONDO ? 2 : 0],
    ]);
    this.log.parcel.push(i); this.log.day.push(s.day); this.log.price.push(s.priceUsd); this.log.arms.push(s.arms);
    const key = s.flipRole !== '' ? `flip_${s.flipRole}` : s.defect;
    this.byDefect.set(key, (this.byDefect.get(key) ?? 0) + 1);
  }

  close(): void {
    this.cook.close();
    this.lake.close();
    this.truth.close();
  }
}
