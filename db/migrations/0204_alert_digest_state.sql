-- The digest's dedupe state shared by every replica (issue 18): which listings each profile was alerted about (and at
-- what price buckets), and the UTC day of its last digest. Written in one transaction with the digest's outbox rows, so
-- whichever replica runs a day's listings run dedupes against every earlier day's digest.
CREATE TABLE alert_seen (
  profile_ref text NOT NULL,
  listing_id text NOT NULL,
  state jsonb NOT NULL,
  PRIMARY KEY (profile_ref, listing_id)
);
CREATE TABLE alert_digest_days (
  profile_ref text PRIMARY KEY,
  day text
);
