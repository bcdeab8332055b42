// Alert profile input (spec, Events: alert profile): the input of create_strategy_profile and POST /api/me/profiles.
// Strict: unknown keys are refused; a profile must name at least one channel it can be delivered to.
import { z } from 'zod';
import { ALERTS } from '../registry/groups/alerts.js';
import { StrategySchema } from './common.js';

const lon = z.number().min(-180).max(180);
const lat = z.number().min(-90).max(90);

/** [west, south, east, north] in degrees; a box crossing the antimeridian is not needed for Cook and Lake. */
export const BboxSchema = z
  .tuple([lon, lat, lon, lat])
  .refine(([w, s, e, n]) => w < e && s < n, { message: 'bbox must be [west, south, east, north] with west < east and south < north' })
  .describe('area watched: [west, south, east, north] in decimal degrees, west < east and south < north');

/** Optional narrowing beyond the spec's fields; telegram_chat_id is where the Telegram channel sends (channels.telegram is a boolean in the spec). */
export const CriteriaSchema = z.strictObject({
  zips: z.array(z.string().regex(/^[0-9]{5}$/, 'a ZIP is 5 digits')).min(1).max(ALERTS.v.max_criteria_zips).optional().describe(`only listings in these 5-digit ZIP codes, 1-${ALERTS.v.max_criteria_zips}`),
  telegram_chat_id: z.union([z.string().regex(/^-?[0-9]{1,20}$|^@[A-Za-z0-9_]{5,32}$/), z.number().int()]).transform(String).optional().describe('Telegram chat id (digits, or @channel name) the telegram channel sends to'),
}).describe('optional narrowing: zips, and where the telegram channel sends');

export const WebhookChannelSchema = z.strictObject({
  url: z.string().min(1).max(ALERTS.v.max_url_chars).describe('https URL the signed alert is POSTed to (public addresses only)'),
  secret: z.string().min(ALERTS.v.min_secret_chars).max(ALERTS.v.max_secret_chars).describe(`shared secret that signs each delivery (HMAC), ${ALERTS.v.min_secret_chars}-${ALERTS.v.max_secret_chars} characters`),
}).describe('deliver by signed webhook POST (needs scope webhooks)');

export const ChannelsSchema = z.strictObject({ telegram: z.boolean().optional().describe('true: deliver to criteria.telegram_chat_id'), webhook: WebhookChannelSchema.optional() })
  .describe('where alerts go: telegram and/or webhook; at least one');

export const ProfileInputSchema = z
  .strictObject({
    id: z.string().regex(new RegExp(`^[A-Za-z0-9_-]{1,${ALERTS.v.max_profile_id_chars}}$`), `id: 1-${ALERTS.v.max_profile_id_chars} of A-Z a-z 0-9 _ -`).optional().describe(`profile id, 1-${ALERTS.v.max_profile_id_chars} of A-Z a-z 0-9 _ -; generated when omitted`),
    name: z.string().trim().min(1).max(ALERTS.v.max_profile_name_chars).describe(`profile name, 1-${ALERTS.v.max_profile_name_chars} characters`),
    strategy: StrategySchema.describe('strategy whose percentile is watched: flip, brrrr, hold or house_hack'),
    min_percentile: z.number().min(0).max(100).describe('alert on listings at or above this per-strategy percentile, 0-100'),
    max_price: z.number().min(0).describe('alert only on listings priced at or below this, USD'),
    min_confidence: z.number().min(0).max(100).describe('alert only when the valuation confidence is at least this, 0-100'),
    bbox: BboxSchema,
    criteria: CriteriaSchema.default({}),
    channels: ChannelsSchema,
  })
  .refine((p) => p.channels.telegram === true || p.channels.webhook !== undefined, {
    message: 'a profile needs a channel to deliver to: channels.webhook, or channels.telegram true',
    path: ['channels'],
  })
  .refine((p) => p.channels.telegram !== true || p.criteria.telegram_chat_id !== undefined, {
    message: 'channels.telegram requires criteria.telegram_chat_id',
    path: ['criteria', 'telegram_chat_id'],
  });
export type ProfileInput = z.output<typeof ProfileInputSchema>;
