// Adapter from an Arrow sales table (column names of src/store/columns.ts) to the kernel's typed columns.
import { AppError } from '../errors/app-error.js';
import { SALES_COLUMNS } from '../store/columns.js';
import { COLUMN_IDS } from './abi-layout.js';
import type { ColumnName, KernelColumns } from './types.js';

/** The part of an apache-arrow Table the adapter uses. */
export type ArrowLikeTable = {
  numRows: number;
  getChild(name: string): { length: number; toArray(): ArrayLike<number> | unknown } | null;
};

/** Typed columns of `table`; a missing column is an ingest_invalid_file error. Values are copied into the
 * kernel's typed-array types (a no-op conversion when the Arrow type already matches). */
export function columnsFromArrow(table: ArrowLikeTable): KernelColumns {
  const out = {} as Record<ColumnName, ArrayLike<number>>;
  for (const name of Object.keys(COLUMN_IDS) as ColumnName[]) {
    const arrowName = SALES_COLUMNS[name];
    const col = table.getChild(arrowName);
    if (!col) throw new AppError('ingest_invalid_file', `sales snapshot has no column ${arrowName}`);
    const values = col.toArray() as ArrayLike<number>;
    const Type = COLUMN_IDS[name].type;
    out[name] = values instanceof Type && values.length === table.numRows ? values : Type.from(values as ArrayLike<number>);
  }
  return out as unknown as KernelColumns;
}
