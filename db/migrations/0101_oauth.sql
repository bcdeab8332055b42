-- The authorization server's state shared by replicas (issue 18, PGSTATE): oidc-provider's records, the API key each
-- approved grant minted, and (in backend_meta, key oauth_secrets) its cookie and signing keys. `expires_at` is epoch ms
-- (null: never); an expired record is absent to readers and removed by the sweep.
CREATE TABLE oauth_records (
  model text NOT NULL,
  id text NOT NULL,
  payload json NOT NULL,
  grant_id text,
  uid text,
  expires_at bigint,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_records_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid ON oauth_records (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE oauth_grant_keys (
  grant_id text PRIMARY KEY,
  key_id text NOT NULL
);
