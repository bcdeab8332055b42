// Property-tax estimator constants (Cook equalized bill, Lake median effective rate, triads, appeal scenario).
// Rates, equalization factors and levels of assessment are NOT here: they come from data/reference.
import { c, defineGroup } from '../define.js';

const DOMAIN = 'DOMAIN.md, Property tax';

export const TAX = defineGroup({
  name: 'tax',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    cook_homeowner_exemption_eav_usd: c(10_000, 'USD of equalized assessed value', 'Cook homeowner exemption, owner-occupants only; a buyer who rents the property out loses it', `${DOMAIN}; 35 ILCS 200/15-175 (Cook general homestead exemption $10,000 since tax year 2017, P.A. 100-0401)`),
    cook_residential_class_code: c('202', 'CCAO class code', 'class used for the level of assessment when the parcel class is unknown (class 2 residential is assessed at 10%)', 'ccao.loa.csv (class 2xx loa = 0.10); CCAO class_dict'),
    cook_triad_base_years: c([2024, 2025, 2026], 'year', 'reassessment base year per triad: City of Chicago, North suburbs, South/West suburbs', DOMAIN),
    reassess_cycle_years: c(3, 'years', 'Cook triads are reassessed every three years', DOMAIN),
    lake_quadrennial_base_year: c(2023, 'year', 'Lake County general (quadrennial) reassessment year; next every 4 years', '35 ILCS 200/9-215 (general assessment every 4 years outside Cook); Lake County Chief Assessment Office 2023 quadrennial'),
    lake_cycle_years: c(4, 'years', 'Lake reassesses on the quadrennial cycle', '35 ILCS 200/9-215'),
    lake_assessment_level: c(1 / 3, 'fraction of market value', 'Illinois counties outside Cook assess at one-third of market value', `${DOMAIN}; 35 ILCS 200/9-145`),
    lake_median_effective_rate: c(0.0246, 'fraction of market value per year', 'Lake has no parcel or municipal rate data in reference; median effective rate, treated as pre-exemption; confidence low', 'Tax Foundation, Property Taxes on Owner-Occupied Housing as % of Median Home Value, CY2010 (Lake County IL 2.46%), as cited in Lake County planning report Exhibit III-45'),
    lake_homestead_exemption_eav_usd: c(8_000, 'USD of equalized assessed value', 'general homestead exemption outside Cook, owner-occupants only', '35 ILCS 200/15-175 as amended by P.A. 102-0895 ($8,000 in counties other than Cook)'),
    shock_threshold_frac: c(0.2, 'fraction', 'tax shock when the forward bill exceeds the current bill by more than 20%', 'convention; risk flag "tax shock after purchase" (issue 6)'),
    appeal_av_reduction_pct: c(10, 'percent of assessed value', 'Board-of-Review appeal scenario: conservative 10% AV reduction default', 'service-spec.md, Tax (appeal)'),
  },
});
