// What condition inference reads of the joined sales rows and what it writes back.

/** Columns of the joined sales (src/ingest/loaders/join-sales.ts SalesTable) that bear on condition. */
export type ConditionInput = {
  length: number;
  parcelIdx: Uint32Array; county: Uint8Array; lat: Float64Array; lon: Float64Array; saleDay: Int32Array; priceUsd: Float64Array; sqft: Float64Array; beds: Int8Array;
  yearBuilt: Int16Array; units: Uint8Array; ptype: Uint8Array; tractIdx: Uint16Array; deedType: Uint8Array; numParcels: Uint16Array;
  /** CONDITION_CODE given by the feed, or CONDITION_DERIVE (ccao-sales.ts) when the feed has none. */
  condition: Uint8Array;
  /** char_renovation (0/1) and char_repair_cnd (1 above average, 2 average, 3 below average); UNKNOWN_U8 when unknown. */
  renovation: Uint8Array; repairCnd: Uint8Array;
};

/** Per sale: CONDITION_CODE, probability of that condition (NaN when unknown) and CONDITION_SOURCE_CODE. */
export type ConditionEstimate = { condition: Uint8Array; prob: Float32Array; source: Uint8Array };
