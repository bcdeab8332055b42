// Inventory search fields: what `fields` may select on search_investment_inventory (and what a page row carries).

/** Fields a caller may ask for (`fields`); the default page carries all of them. */
export const INVENTORY_FIELDS = [
  'listing_id', 'address', 'zip', 'price', 'url', 'lat', 'lon', 'units', 'property_type', 'percentile', 'percentiles', 'deal_score',
  'best_strategy', 'arv', 'arv_low', 'arv_high', 'arv_method', 'arv_confidence', 'confidence', 'strategy_scores', 'investor_targets', 'model_version', 'scored_at', 'first_seen_at', 'reasons',
] as const;
