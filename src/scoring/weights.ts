// Caller factor weights for the strategy blend: strict schema (spec keys only, each 0-1) and normalization.
// A strategy object given by the caller replaces its defaults whole (missing keys weigh 0); then weights sum to 1.
import { WeightsSchema } from '../contracts/weights.js';
import { AppError } from '../errors/app-error.js';
import { SCORING } from '../registry/groups/scoring.js';

export { WeightsSchema, FACTOR_KEYS, type Weights } from '../contracts/weights.js';

export type ResolvedWeights = {
  flip: Record<'margin' | 'velocity' | 'trend', number>;
  brrrr: Record<'ratio' | 'dscr', number>;
  hold: Record<'coc' | 'risk', number>;
  house_hack: Record<'savings', number>;
};

function defaults(): ResolvedWeights {
  const [margin, velocity, trend] = SCORING.v.weights_flip;
  const [ratio, dscr] = SCORING.v.weights_brrrr;
  const [coc, risk] = SCORING.v.weights_hold;
  return { flip: { margin, velocity, trend }, brrrr: { ratio, dscr }, hold: { coc, risk }, house_hack: { savings: 1 } };
}

function normalize<K extends string>(name: string, o: Record<K, number>): Record<K, number> {
  const sum = Object.values<number>(o).reduce((a, b) => a + b, 0);
  if (!(sum > 0)) throw new AppError('validation_failed', `weights.${name} must not all be zero`);
  return Object.fromEntries(Object.entries<number>(o).map(([k, v]) => [k, v / sum])) as Record<K, number>;
}

/** Validate raw caller weights (or undefined) and return normalized weights for every strategy. */
export function resolveWeights(raw: unknown): ResolvedWeights {
  const r = WeightsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError('validation_failed', `weights invalid: ${issues.map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')}`, { details: issues });
  }
  const d = defaults();
  const c = r.data;
  return {
    flip: normalize('flip', c.flip ? { margin: c.flip.margin ?? 0, velocity: c.flip.velocity ?? 0, trend: c.flip.trend ?? 0 } : d.flip),
    brrrr: normalize('brrrr', c.brrrr ? { ratio: c.brrrr.ratio ?? 0, dscr: c.brrrr.dscr ?? 0 } : d.brrrr),
    hold: normalize('hold', c.hold ? { coc: c.hold.coc ?? 0, risk: c.hold.risk ?? 0 } : d.hold),
    house_hack: d.house_hack,
  };
}
