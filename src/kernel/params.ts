// Comp-policy numbers as the kernel takes them: one params object built from the registry (the one source), its
// flat slot encoding for WASM, the deed classes and the condition strata.
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { CONDITION_CODE, DEED_CODE } from '../store/columns.js';
import { DEED_CLASS, PARAM_LEN } from './abi-layout.js';

export type KernelParams = {
  glaBandFrac: number;
  bedsBand: number;
  ladderRadiusMi: readonly number[];
  ladderWindowDays: readonly number[];
  madTrimK: number;
  madScale: number;
  /** A ladder step with at least this many qualified comps stops the ladder (min_comps_point). */
  ladderEnough: number;
  maxComps: number;
  timeIndexMaxAnnual: number;
  timeIndexClamp: readonly number[];
  glaAdjCapFrac: number;
  glaMarginalFrac: number;
  priceFloorUsd: number;
  duplicateWindowDays: number;
  rapidResaleDays: number;
  similarityWeights: readonly number[];
  /** Grid cell side: the largest radius a query uses (ladder max; overrides larger than this still work). */
  gridCellMi: number;
};

export function kernelParams(v: typeof COMP_POLICY.v = COMP_POLICY.v): KernelParams {
  return {
    glaBandFrac: v.gla_band_frac,
    bedsBand: v.beds_band,
    ladderRadiusMi: v.ladder_radius_mi,
    ladderWindowDays: v.ladder_window_days,
    madTrimK: v.mad_trim_k,
    madScale: v.mad_scale,
    ladderEnough: v.min_comps_point,
    maxComps: v.max_comps,
    timeIndexMaxAnnual: v.time_index_max_annual,
    timeIndexClamp: v.time_index_clamp,
    glaAdjCapFrac: v.gla_adj_cap_frac,
    glaMarginalFrac: v.gla_marginal_frac,
    priceFloorUsd: v.price_floor_usd,
    duplicateWindowDays: v.duplicate_window_days,
    rapidResaleDays: v.rapid_resale_days,
    similarityWeights: v.similarity_weights,
    gridCellMi: Math.max(...v.ladder_radius_mi),
  };
}

/** The params in the kernel's slot order (crates/avm-kernel/src/params.rs). */
export function paramSlots(p: KernelParams): Float64Array {
  const s = [
    p.glaBandFrac, p.bedsBand, ...p.ladderRadiusMi, ...p.ladderWindowDays, p.madTrimK, p.madScale, p.ladderEnough,
    p.maxComps, p.timeIndexMaxAnnual, ...p.timeIndexClamp, p.glaAdjCapFrac, p.glaMarginalFrac, p.priceFloorUsd,
    p.duplicateWindowDays, p.rapidResaleDays, ...p.similarityWeights, p.gridCellMi,
  ];
  if (s.length !== PARAM_LEN) throw new Error(`kernel params: ${s.length} slots, ABI expects ${PARAM_LEN}`);
  return Float64Array.from(s);
}

/** Deed code -> class: quitclaim (3) and the non-arms-length types (executor, other, beneficiary, unknown). */
export const DEED_CLASSES: ReadonlyArray<[code: number, cls: number]> = [
  [DEED_CODE.quitclaim, DEED_CLASS.quitclaim],
  [DEED_CODE.executor, DEED_CLASS.nonArms],
  [DEED_CODE.other, DEED_CLASS.nonArms],
  [DEED_CODE.beneficiary, DEED_CLASS.nonArms],
  [DEED_CODE.unknown, DEED_CLASS.nonArms],
];

/** Deed class table indexed by code (0 = arms-length). */
export function deedClassTable(): Uint8Array {
  const t = new Uint8Array(256);
  for (const [code, cls] of DEED_CLASSES) t[code] = cls;
  return t;
}

/** Stratum mask bit of a condition code: codes 0..6 their own bit, anything else (unknown = 255) bit 7. */
export function conditionBit(code: number): number {
  return code < 7 ? 1 << code : 1 << 7;
}

const bit = conditionBit;
/** Condition strata: ARV comps are renovated or new; as-is comps distressed or dated; the relaxed mixed stratum is
 * everything but renovated and new (including unknown condition). */
export const STRATUM = {
  arv: bit(CONDITION_CODE.renovated) | bit(CONDITION_CODE.new),
  asIs: bit(CONDITION_CODE.distressed) | bit(CONDITION_CODE.dated),
  mixed: 0xff & ~(bit(CONDITION_CODE.renovated) | bit(CONDITION_CODE.new)),
  /** Every condition (unknown included): the as-is market of a subject whose condition nobody states. */
  all: 0xff,
} as const;

/** Index layout hint: each condition code's group is the first stratum holding it (ARV, as-is, then the rest), so a
 * stratum's rows share one bucket per grid cell. Results do not depend on it. */
export function conditionGroups(): Array<[code: number, group: number]> {
  const strata = [STRATUM.arv, STRATUM.asIs];
  return Object.values(CONDITION_CODE).map((code) => {
    const g = strata.findIndex((m) => (m & conditionBit(code)) !== 0);
    return [code, g < 0 ? strata.length : g];
  });
}
