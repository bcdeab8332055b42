// The hedonic_v1 model object: per-segment coefficients, residual sigma, tract and quarter effects, calibration.
// Plain JSON/msgpack-safe data so it can be stored in LMDB (`calibration` sub-db, key `hedonic:<version>`).

/** A tract's location effect: raw within-tract mean residual, its sales count, shrinkage weight and the shrunk value. */
export type TractEffect = {
  n: number;
  /** Raw fixed effect ȳ_t − x̄_t·β (log points, includes the segment level). */
  raw: number;
  /** Neighborhood mean it shrinks toward (n-weighted raw effects of other tracts within parent_radius_mi). */
  parent: number;
  /** w = n / (n + k). */
  weight: number;
  /** w·raw + (1 − w)·parent: the effect used for prediction. */
  shrunk: number;
  lat: number;
  lon: number;
};

/** Out-of-time calibration of the interval: split-conformal ratios price/estimate on the held-out window. */
export type HedonicCalibration = {
  n: number;
  /** Conformal ratio quantiles (80%). */
  qLo: number;
  qHi: number;
  /** Corrections so [v·e^(−zσ)·cLo, v·e^(zσ)·cHi] = [v·qLo, v·qHi]. */
  cLo: number;
  cHi: number;
  mdape: number;
  ppe10: number;
  fromDay: number;
  toDay: number;
};

export type HedonicSegmentFit = {
  segment: string;
  n: number;
  /** Residual standard deviation of ln(price), with dof n − p − tracts. */
  sigma: number;
  /** 1 − SSR/SST on ln(price) (tract effects included). */
  r2: number;
  /** Covariate names, same order as coefs (quarter dummies excluded; see quarters). */
  features: string[];
  coefs: number[];
  /** Means of each covariate over the fit rows: used to impute a subject's unknown facts. */
  featureMeans: number[];
  /** Quarter label → effect (log points) relative to the first quarter (effect 0). */
  quarters: Record<string, number>;
  lastQuarter: string;
  tracts: Record<string, TractEffect>;
  /** Empirical-Bayes shrinkage constant k = σ² / τ² (floored), and τ² the between-tract variance. */
  shrinkK: number;
  tau2: number;
  /** n-weighted mean raw effect: the parent when no tract lies within parent_radius_mi. */
  segmentMean: number;
  calibration: HedonicCalibration | null;
  displayEligible: boolean;
  /** Why it is not display-eligible (null when eligible). */
  ineligibleReason: string | null;
};

export type HedonicModel = {
  model: 'hedonic_v1';
  version: string;
  cutoffDay: number;
  /** ISO date of the cutoff (sales strictly before it were used). */
  cutoff: string;
  constantsVersion: string;
  segments: Record<string, HedonicSegmentFit>;
  /** Segments skipped with the reason (too few sales). */
  skipped: Record<string, string>;
};

export type TractMeta = { geoid: string; county: 'cook' | 'lake'; muni: string | null; lat: number; lon: number };

export type LocationBasis = 'tract' | 'shrunk' | 'none';

export type HedonicSubject = {
  segment: string;
  tractGeoid: string | null;
  lat: number;
  lon: number;
  sqft: number | null;
  beds: number | null;
  yearBuilt: number | null;
  units: number | null;
  /** Condition valued at: `renovated` for an after-repair value. */
  condition: 'distressed' | 'dated' | 'renovated' | 'new';
  asOfDay: number;
};

export type HedonicPrediction = {
  value: number;
  low: number;
  high: number;
  location_basis: LocationBasis;
  quarter_used: string;
  segment: string;
  sigma: number;
  /** Subject facts replaced by the segment mean (unknown on the subject). */
  imputed: string[];
  version: string;
};
