-- Rate limits shared by every replica (issue 18): rate-limiter-flexible's RateLimiterPostgres table layout (key,
-- consumed points, window expiry in ms since epoch), created here so no replica runs DDL at request time
-- (the limiter is opened with tableCreated: true).
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
CREATE INDEX rate_limits_expire ON rate_limits (expire);
