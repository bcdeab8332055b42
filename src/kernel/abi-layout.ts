// The WASM kernel's ABI as seen from TypeScript: slot layouts, column ids and error codes. Mirrors
// crates/avm-kernel/src/{abi,params,errors}.rs; a change on either side changes both (ABI_VERSION).

export const ABI_VERSION = 1;

/** Params slot order (crates/avm-kernel/src/params.rs Params::from_slots). */
export const PARAM_LEN = 25;

/** Raw column ids of avm_column_ptr, with the typed-array constructor each is written with. */
export const COLUMN_IDS = {
  parcelIdx: { id: 0, type: Uint32Array },
  county: { id: 1, type: Uint8Array },
  lat: { id: 2, type: Float64Array },
  lon: { id: 3, type: Float64Array },
  saleDay: { id: 4, type: Int32Array },
  priceUsd: { id: 5, type: Float64Array },
  sqft: { id: 6, type: Float64Array },
  beds: { id: 7, type: Int8Array },
  ptype: { id: 8, type: Uint8Array },
  condition: { id: 9, type: Uint8Array },
  deedType: { id: 10, type: Uint8Array },
  numParcels: { id: 11, type: Uint16Array },
} as const;

/** f64 slots per subject: lat, lon, sqft, beds, ptype, county, as_of_day, stratum_mask, exclude_parcel,
 * max_step, override_radius_mi, override_window_days. */
export const SUBJECT_LEN = 12;
/** Output header per query: error, step, n_qualified, n_selected, n_rejected, n, median, q25, q75, fsd. */
export const HEADER_LEN = 10;
/** Slot of each header field within a record (crates/avm-kernel/src/slots.rs write_record). */
export const HEADER = { error: 0, step: 1, nQualified: 2, nSelected: 3, nRejected: 4, n: 5, median: 6, q25: 7, q75: 8, fsd: 9 } as const;
/** Per selected comp: row, dist_mi, index_factor, indexed_price, gla_adj, adjusted_price, similarity. */
export const COMP_LEN = 7;
/** Per rejected candidate: row, reason code (index into REJECTION_REASONS). */
export const REJECT_LEN = 2;

/** Deed classes of avm_set_deed_class. */
export const DEED_CLASS = { armsLength: 0, quitclaim: 1, nonArms: 2 } as const;

/** Kernel error codes (crates/avm-kernel/src/errors.rs). */
export const KERNEL_ERRORS: Record<number, string> = {
  1: 'bad_params',
  2: 'not_ready',
  3: 'bad_columns',
  4: 'grid_too_large',
  5: 'bad_subject',
  6: 'bad_time_index',
  7: 'bad_conformal_input',
  8: 'bad_argument',
};
export const KERNEL_BAD_SUBJECT = 5;
export const KERNEL_BAD_CONFORMAL_INPUT = 7;

/** The exports the door calls (pointers are byte offsets into linear memory). */
export type KernelExports = {
  memory: { readonly buffer: ArrayBuffer };
  avm_abi_version(): number;
  avm_params_ptr(): number;
  avm_set_params(): number;
  avm_set_deed_class(code: number, cls: number): number;
  avm_set_condition_group(code: number, group: number): number;
  avm_columns_alloc(n: number): number;
  avm_column_ptr(col: number): number;
  avm_build_index(): number;
  avm_index_rows(): number;
  avm_index_cells(): number;
  avm_time_index_alloc(len: number): number;
  avm_time_index_months_ptr(): number;
  avm_time_index_levels_ptr(): number;
  avm_time_index_set(county: number): number;
  avm_time_index_clear(): number;
  avm_input_ptr(n: number): number;
  avm_output_ptr(): number;
  avm_output_len(): number;
  avm_batch(n: number, withRejected: number): number;
  avm_query(): number;
  /** Split-conformal bounds (stats.rs). Not called by src: the one served definition is valuation/calibration/conformal.ts;
   * test/kernel/conformal-parity.test.ts holds the two equal. */
  avm_conformal(n: number, alpha: number, twoSided: number): number;
};
