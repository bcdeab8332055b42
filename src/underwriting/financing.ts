// Loan math: amortization, interest-only, points, mortgage insurance, loan limits, per financing type.
// Pure functions; terms come from the underwriting constants group after caller overrides.
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import type { FinancingType, Loan, LoanTerms } from './types.js';

const U = UNDERWRITING.v;

/**
 * Level monthly payment: M = L·r / (1 − (1 + r)^−n), r = annual rate / 12, n = months.
 * Interest-only: M = L·r. A zero rate repays principal evenly (L / n).
 */
export function monthlyPayment(loanUsd: number, ratePct: number, termMonths: number, interestOnly = false): number {
  const r = ratePct / 100 / 12;
  if (loanUsd <= 0) return 0;
  if (interestOnly) return loanUsd * r;
  if (r === 0) return loanUsd / termMonths;
  return (loanUsd * r) / (1 - Math.pow(1 + r, -termMonths));
}

/** Principal that a monthly payment carries: the inverse of monthlyPayment (amortizing, or IO when interestOnly). */
export function principalForPayment(paymentUsd: number, ratePct: number, termMonths: number, interestOnly = false): number {
  const r = ratePct / 100 / 12;
  if (paymentUsd <= 0) return 0;
  if (interestOnly) return r === 0 ? Infinity : paymentUsd / r;
  if (r === 0) return paymentUsd * termMonths;
  return (paymentUsd * (1 - Math.pow(1 + r, -termMonths))) / r;
}

/** Interest paid over the first k months of the loan (exact, from the remaining balance). */
export function interestOverMonths(loanUsd: number, ratePct: number, termMonths: number, months: number, interestOnly = false): number {
  const r = ratePct / 100 / 12;
  if (loanUsd <= 0 || months <= 0) return 0;
  if (interestOnly || r === 0) return interestOnly ? loanUsd * r * months : 0;
  const m = monthlyPayment(loanUsd, ratePct, termMonths);
  const k = Math.min(months, termMonths);
  const g = Math.pow(1 + r, k);
  const balance = loanUsd * g - (m * (g - 1)) / r;
  return k * m - (loanUsd - balance);
}

export type TermOverrides = { ratePct?: number; downFrac?: number };

const DEFAULT_TERMS = new Map<FinancingType, LoanTerms>();

/** Default terms per financing type, with the caller's rate and down payment applied. Defaults are cached (frozen). */
export function termsFor(type: FinancingType, o: TermOverrides = {}): LoanTerms {
  if (o.ratePct !== undefined || o.downFrac !== undefined) return buildTerms(type, o);
  let t = DEFAULT_TERMS.get(type);
  if (!t) DEFAULT_TERMS.set(type, (t = Object.freeze(buildTerms(type, {}))));
  return t;
}

function buildTerms(type: FinancingType, o: TermOverrides): LoanTerms {
  const amortizing = U.amortizing_term_years * 12;
  const base: Record<FinancingType, LoanTerms> = {
    conventional_investor: { type, ratePct: U.conv_inv_rate_pct, downFrac: U.conv_inv_down_frac, termMonths: amortizing, interestOnly: false, pointsFrac: 0, upfrontMipFrac: 0, annualMiFrac: 0 },
    dscr_loan: { type, ratePct: U.dscr_rate_pct, downFrac: U.dscr_down_frac, termMonths: amortizing, interestOnly: false, pointsFrac: 0, upfrontMipFrac: 0, annualMiFrac: 0 },
    hard_money: { type, ratePct: U.hm_rate_pct, downFrac: U.hm_down_frac, termMonths: U.hm_term_months, interestOnly: true, pointsFrac: U.hm_points_frac, upfrontMipFrac: 0, annualMiFrac: 0 },
    fha_oo: { type, ratePct: U.fha_rate_pct, downFrac: U.fha_down_frac, termMonths: amortizing, interestOnly: false, pointsFrac: 0, upfrontMipFrac: U.fha_upfront_mip_frac, annualMiFrac: U.fha_annual_mip_frac },
    conventional_oo: { type, ratePct: U.conv_oo_rate_pct, downFrac: U.conv_oo_down_frac, termMonths: amortizing, interestOnly: false, pointsFrac: 0, upfrontMipFrac: 0, annualMiFrac: 0 },
  };
  const t = { ...base[type], ratePct: o.ratePct ?? base[type].ratePct, downFrac: o.downFrac ?? base[type].downFrac };
  // PMI only while LTV exceeds the threshold; FHA MIP applies regardless of down payment.
  if (type === 'conventional_oo' && 1 - t.downFrac > U.pmi_ltv_threshold) t.annualMiFrac = U.conv_oo_pmi_annual_frac;
  return t;
}

export type LoanDeal = {
  priceUsd: number;
  rehabUsd: number;
  /** Point ARV; used by hard-money ARV caps and refinance sizing. */
  arvUsd: number;
  /** As-is value when known: long-term lenders apply LTV to the lesser of price and appraised value. */
  asIsUsd: number | null;
  /** Year-1 NOI, for the DSCR-loan ceiling; null when no rent basis. */
  noiAnnualUsd: number | null;
};

/** Size a purchase loan. Hard money funds price and (by default) rehab up to its LTC and ARV caps. */
export function sizeLoan(terms: LoanTerms, deal: LoanDeal): Loan {
  let proceeds: number;
  let limit: number;
  if (terms.type === 'hard_money') {
    limit = Math.min(U.hm_max_ltc_frac * (deal.priceUsd + deal.rehabUsd), U.hm_max_arv_frac * deal.arvUsd);
    proceeds = Math.min(limit, (1 - terms.downFrac) * deal.priceUsd + (U.hm_funds_rehab ? deal.rehabUsd : 0));
  } else {
    limit = (1 - terms.downFrac) * Math.min(deal.priceUsd, deal.asIsUsd ?? deal.priceUsd);
    if (terms.type === 'dscr_loan' && deal.noiAnnualUsd !== null) limit = Math.min(limit, dscrCeiling(terms, deal.noiAnnualUsd));
    proceeds = limit;
  }
  proceeds = Math.max(0, proceeds);
  return finishLoan(terms, proceeds, Math.max(0, limit));
}

/**
 * Purchase prices at which sizeLoan switches branch (its min() picks another term). Between two kinks the loan,
 * and so every cost built from it, is linear in price: the offer solvers use this to solve exactly.
 */
export function loanPriceKinks(terms: LoanTerms, deal: Omit<LoanDeal, 'priceUsd'>): number[] {
  const out: number[] = [];
  const lend = 1 - terms.downFrac;
  if (terms.type === 'hard_money') {
    const rf = U.hm_funds_rehab ? deal.rehabUsd : 0;
    const arvCap = U.hm_max_arv_frac * deal.arvUsd;
    out.push(arvCap / U.hm_max_ltc_frac - deal.rehabUsd);
    if (lend > 0) out.push((arvCap - rf) / lend, -rf / lend);
    if (lend !== U.hm_max_ltc_frac) out.push((U.hm_max_ltc_frac * deal.rehabUsd - rf) / (lend - U.hm_max_ltc_frac));
  } else {
    if (deal.asIsUsd !== null) out.push(deal.asIsUsd);
    if (terms.type === 'dscr_loan' && deal.noiAnnualUsd !== null && lend > 0) out.push(dscrCeiling(terms, deal.noiAnnualUsd) / lend);
  }
  return out.filter((x) => Number.isFinite(x));
}

/** Refinance sized on value: min(LTV × value, DSCR-floor ceiling) when NOI is known. */
export function sizeRefinance(terms: LoanTerms, valueUsd: number, ltv: number, noiAnnualUsd: number | null): Loan {
  let limit = ltv * valueUsd;
  if (noiAnnualUsd !== null) limit = Math.min(limit, dscrCeiling(terms, noiAnnualUsd));
  limit = Math.max(0, limit);
  return finishLoan(terms, limit, limit);
}

/** Largest loan whose debt service keeps NOI / DS at the lender floor. */
function dscrCeiling(terms: LoanTerms, noiAnnualUsd: number): number {
  const maxMonthly = Math.max(0, noiAnnualUsd) / U.dscr_lender_min / 12;
  // Mortgage insurance is part of debt service: solve payment + MI on the loan together.
  const perDollar = monthlyPayment(1, terms.ratePct, terms.termMonths, terms.interestOnly) + terms.annualMiFrac / 12;
  return perDollar > 0 ? maxMonthly / perDollar : 0;
}

function finishLoan(terms: LoanTerms, proceedsUsd: number, limitUsd: number): Loan {
  const loanUsd = proceedsUsd * (1 + terms.upfrontMipFrac);
  const monthlyPiUsd = monthlyPayment(loanUsd, terms.ratePct, terms.termMonths, terms.interestOnly);
  const monthlyMiUsd = (loanUsd * terms.annualMiFrac) / 12;
  return {
    terms,
    loanUsd,
    proceedsUsd,
    pointsUsd: loanUsd * terms.pointsFrac,
    monthlyPiUsd,
    monthlyMiUsd,
    annualDebtServiceUsd: 12 * (monthlyPiUsd + monthlyMiUsd),
    loanLimitUsd: limitUsd,
  };
}
