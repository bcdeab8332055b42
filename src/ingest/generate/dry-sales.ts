// The dry pass of generator 3.1.0: the sales drawn once without writing, so the levels and the per-area quality can be
// fitted to the sales the corpus will actually hold (the written pass re-draws the same rows from the same stream: no
// draw depends on a value). A row's price is taken to move with the true value that set it (noise, deed and defect
// multipliers fixed): `movedLnPrice` is its ln price under the current levels and qualities.
import type { SaleRec } from './sales-out.js';
import { valueUsd, type SaleSink, type SalesCtx } from './sales.js';

export type DryRow = {
  parcel: number; day: number; arms: boolean; price: number;
  /** Day, condition and true value of the sale that set the price (a duplicate or rapid resale copies an earlier one). */
  priceDay: number; priceCond: number; value: number;
  /** An under-$10k row: a drawn price that follows no value. */
  fixed: boolean;
};

/** Records every row; writes nothing. */
export class DrySales implements SaleSink {
  readonly rows: DryRow[] = [];
  emit(s: SaleRec): void {
    const driver = s.copies ?? s;
    this.rows.push({ parcel: s.parcel, day: s.day, arms: s.arms, price: s.priceUsd, priceDay: driver.day, priceCond: driver.cond, value: driver.trueValueUsd, fixed: s.defect === 'under_10k' });
  }
}

/** ln price of a dry row under the context's current levels and qualities. */
export function movedLnPrice(c: SalesCtx, r: DryRow): number {
  return Math.log(r.price) + (r.fixed ? 0 : Math.log(valueUsd(c, r.parcel, r.priceCond, r.priceDay)) - Math.log(r.value));
}
