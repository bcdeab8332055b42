// Measures why listings gate out: values and underwrites the active feed of a corpus exactly as the listings run does
// (no store writes) and tabulates, per strategy, how many point-actionable listings fail which gate check and by how
// much. `npx tsx scripts/gate-report.ts --data-dir DIR [--json]`. Read-only on the corpus.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { capActive, dedupeByAddress } from '../src/listings/dedupe.js';
import { buildValuationContext } from '../src/valuation/value-context.js';
import { subjectOfListing } from '../src/listings/run.js';
import { isChicagoTract, underwriteInputOf } from '../src/scoring/score-subject.js';
import { LISTINGS_RUN } from '../src/registry/groups/listings.js';
import { evaluateGates } from '../src/scoring/gates.js';
import { openStore } from '../src/store/store.js';
import { monthlyPayment, termsFor } from '../src/underwriting/financing.js';
import { UNDERWRITING } from '../src/registry/groups/underwriting.js';
import { underwrite } from '../src/underwriting/underwrite.js';
import { STRATEGIES, type Strategy } from '../src/underwriting/types.js';
import { pointArvUsd } from '../src/valuation/artifact.js';
import { valueProperty } from '../src/valuation/value.js';
import type { ListingRecord } from '../src/ingest/loaders/listings.js';

const args = process.argv.slice(2);
const dataDir = args[args.indexOf('--data-dir') + 1];
if (!dataDir || args.indexOf('--data-dir') < 0) throw new Error('usage: gate-report.ts --data-dir DIR [--json]');

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
};
const fmt = (x: number): string => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3)) : String(x));

/** listing_id → truth row (condition, true value) when the corpus has a truth folder. */
function truthOf(dir: string): Map<string, Record<string, string>> {
  const f = join(dir, 'truth', 'listings_truth.csv');
  if (!existsSync(f)) return new Map();
  const [head, ...lines] = readFileSync(f, 'utf8').trim().split('\n');
  const cols = head.split(',');
  return new Map(lines.map((l) => {
    const v = l.split(',');
    return [v[0], Object.fromEntries(cols.map((c, i) => [c, v[i]]))];
  }));
}

const store = openStore(dataDir);
const ctx = buildValuationContext(store);
const truth = truthOf(dataDir);
const feed = (store.getListings() as Array<ListingRecord & { feed_status?: string }>).filter((l) => (l.feed_status ?? l.status) === 'active');
const { active } = capActive(dedupeByAddress(feed).kept, LISTINGS_RUN.v.max_active_listings);

type Fail = { metric: string; value: number | null; threshold: number; direction: string };
const outcomes = new Map<string, number>();
const perStrategy = Object.fromEntries(STRATEGIES.map((s) => [s, { pass: 0, unscored: new Map<string, number>(), failCombos: new Map<string, number>(), checks: new Map<string, { fail: number; values: number[]; threshold: number; direction: string }>() }])) as Record<Strategy, {
  pass: number; unscored: Map<string, number>; failCombos: Map<string, number>; checks: Map<string, { fail: number; values: number[]; threshold: number; direction: string }>;
}>;
const rows: Array<Record<string, unknown>> = [];
/** What no purchase price can change: the rental yields the rent and tax leave, and BRRRR coverage at the full refinance. */
const yields = { holdNoiOverPrice: [] as number[], brrrrNoiOverArv: [] as number[], brrrrDscrAtRefiLtv: [] as number[] };
const refi = termsFor('dscr_loan');
/** Flip: the highest price that clears the gate (max_offer) over the true as-is value, by condition: the discount a flip needs. */
const flipOfferOverTrueValue: Record<string, number[]> = {};
const priceOverAsIs: number[] = [];
/** Flip profit margin at the asking price, by condition and sale type; and each passing flip re-run at the truth. */
const flipMarginBy: Record<string, number[]> = {};
const flipPassTruth: string[] = [];
const priceOverArv: Record<string, number[]> = {};

for (const l of active) {
  const s = subjectOfListing(l);
  let v;
  try {
    v = valueProperty(s.input, ctx);
  } catch (e) {
    outcomes.set('error', (outcomes.get('error') ?? 0) + 1);
    continue;
  }
  const outcome = v.display?.outcome ?? 'unknown';
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  const arv = pointArvUsd(v);
  if (arv === null) continue;
  const uw = underwrite(underwriteInputOf(v, isChicagoTract(ctx, v.subject.tract_geoid), l.price_usd));
  const t = truth.get(l.listing_id);
  const cond = t?.condition ?? l.condition ?? 'unknown';
  (priceOverArv[cond] ??= []).push(l.price_usd / arv);
  if (v.value_as_is?.value) priceOverAsIs.push(l.price_usd / v.value_as_is.value);
  const row: Record<string, unknown> = { id: l.listing_id, cond, units: l.units, price: l.price_usd, arv, as_is: v.value_as_is?.value ?? null, rehab: v.rehab.estimate, rent: v.rent.as_is_contract?.value ?? null, tax: v.tax.predictive_annual };
  for (const st of STRATEGIES) {
    const o = uw.strategies[st];
    const agg = perStrategy[st];
    if (o.unscored_reason !== null) {
      agg.unscored.set(o.unscored_reason, (agg.unscored.get(o.unscored_reason) ?? 0) + 1);
      continue;
    }
    const g = evaluateGates(st, o.economics);
    if (g.pass) agg.pass++;
    const fails: Fail[] = [];
    for (const c of g.checks) {
      let a = agg.checks.get(c.metric);
      if (!a) agg.checks.set(c.metric, (a = { fail: 0, values: [], threshold: c.threshold, direction: c.direction }));
      if (c.value !== null) a.values.push(c.value);
      if (!c.pass) {
        a.fail++;
        fails.push(c);
      }
    }
    const combo = fails.map((f) => f.metric).sort().join('+') || 'pass';
    agg.failCombos.set(combo, (agg.failCombos.get(combo) ?? 0) + 1);
    row[st] = { pass: g.pass, noi: o.economics.noi, dscr: o.economics.dscr, checks: Object.fromEntries(g.checks.map((c) => [c.metric, c.value])) };
  }
  const flipMargin = uw.strategies.flip.economics.profit_margin;
  if (flipMargin !== null) (flipMarginBy[`${cond}, ${t?.sale_type ?? 'market'}`] ??= []).push(flipMargin);
  if ((row.flip as { pass?: boolean } | undefined)?.pass && t?.true_arv !== undefined) {
    // The same pro-forma at the generator's true ARV and, when the truth file has it, the true repair cost.
    const input = underwriteInputOf(v, isChicagoTract(ctx, v.subject.tract_geoid), l.price_usd);
    const trueRepair = t.true_repair_cost === undefined ? input.rehab : Number(t.true_repair_cost);
    const atTruth = underwrite({ ...input, arv: Number(t.true_arv), rehab: trueRepair }).strategies.flip.economics.profit_margin;
    flipPassTruth.push(`${l.listing_id} ${cond}, ${t.sale_type ?? 'market'}: margin ${fmt(flipMargin ?? NaN)} (ARV ${fmt(arv)}, rehab ${fmt(v.rehab.estimate ?? NaN)}); at the truth ${fmt(atTruth ?? NaN)} (ARV ${t.true_arv}, repair ${fmt(trueRepair ?? NaN)})`);
  }
  const maxOffer = uw.strategies.flip.economics.max_offer;
  if (t && maxOffer !== null) (flipOfferOverTrueValue[`${cond}, ${t.sale_type ?? 'market'}`] ??= []).push(maxOffer / Number(t.true_value));
  const hold = uw.strategies.hold.economics, brrrr = uw.strategies.brrrr.economics;
  if (hold.noi !== null) yields.holdNoiOverPrice.push(hold.noi / l.price_usd);
  if (brrrr.noi !== null) {
    yields.brrrrNoiOverArv.push(brrrr.noi / arv);
    yields.brrrrDscrAtRefiLtv.push(brrrr.noi / (12 * monthlyPayment(UNDERWRITING.v.brrrr_refi_ltv * arv, refi.ratePct, refi.termMonths)));
  }
  rows.push(row);
}

if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
} else {
  const out: string[] = [];
  out.push(`corpus ${dataDir}: ${active.length} active listings; valuation outcomes: ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  out.push(`point-actionable: ${rows.length}`);
  for (const [cond, xs] of Object.entries(priceOverArv)) out.push(`  price / ARV, condition ${cond} (n=${xs.length}): p10 ${fmt(q(xs, 0.1))}, median ${fmt(q(xs, 0.5))}, p90 ${fmt(q(xs, 0.9))}`);
  out.push(`  price / as-is (n=${priceOverAsIs.length}): p10 ${fmt(q(priceOverAsIs, 0.1))}, median ${fmt(q(priceOverAsIs, 0.5))}, p90 ${fmt(q(priceOverAsIs, 0.9))}`);
  for (const st of STRATEGIES) {
    const a = perStrategy[st];
    out.push(`\n${st}: pass ${a.pass} of ${rows.length}${a.unscored.size ? `; unscored ${[...a.unscored].map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`);
    for (const [m, c] of a.checks) {
      const failVals = c.direction === 'min' ? c.values.filter((x) => x < c.threshold) : c.values.filter((x) => x > c.threshold);
      out.push(`  ${m} (${c.direction} ${c.threshold}): fail ${c.fail}; all values p10 ${fmt(q(c.values, 0.1))} median ${fmt(q(c.values, 0.5))} p90 ${fmt(q(c.values, 0.9))} max ${fmt(Math.max(...c.values))} min ${fmt(Math.min(...c.values))}; failing median ${fmt(q(failVals, 0.5))}`);
    }
    out.push(`  fail combinations: ${[...a.failCombos].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  out.push('\nflip profit margin at the asking price by condition and sale type (min / p10 / median / p90 / max):');
  for (const [k, xs] of Object.entries(flipMarginBy).sort()) out.push(`  ${k} (n=${xs.length}): ${[Math.min(...xs), q(xs, 0.1), q(xs, 0.5), q(xs, 0.9), Math.max(...xs)].map(fmt).join(' / ')}`);
  if (flipPassTruth.length) out.push('passing flips re-run at the true ARV and true repair cost (same costs and price):', ...flipPassTruth.map((x) => `  ${x}`));
  out.push('\nflip max_offer / true as-is value (1 = a flip clears its gate at the true value), best five by condition and sale type:');
  for (const [k, xs] of Object.entries(flipOfferOverTrueValue).sort()) out.push(`  ${k} (n=${xs.length}): ${[...xs].sort((a, b) => b - a).slice(0, 5).map(fmt).join(' ')}`);
  out.push('\nprice-independent yields of the point-actionable listings (p10 / median / p90):');
  for (const [k, xs] of Object.entries(yields)) out.push(`  ${k}: ${fmt(q(xs, 0.1))} / ${fmt(q(xs, 0.5))} / ${fmt(q(xs, 0.9))} (n=${xs.length})`);
  process.stdout.write(`${out.join('\n')}\n`);
}
await store.close();
