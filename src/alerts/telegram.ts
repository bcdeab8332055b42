// The Telegram channel: a digest rendered as plain text and sent with the Bot API `sendMessage` at the configured
// base URL. The bot token is part of the request path, so it never appears in diagnostics or logs.
import { ALERTS } from '../registry/groups/alerts.js';
import { postOnce, type AttemptOutcome } from './http-attempt.js';
import type { OutboxRecord } from './outbox.js';
import type { AlertPayload } from './payload.js';

export type TelegramSettings = { baseUrl: string; botToken: string | null };

const fmtUsd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const fmtPct = (n: number | null): string => (n === null ? 'unscored' : n.toFixed(0));

/** Plain text (no parse_mode, so listing text cannot inject markup); truncated to Telegram's 4096-char limit. */
export function renderTelegramText(p: AlertPayload): string {
  const head = `${p.profile.name}: ${p.matches.length} ${p.strategy} match${p.matches.length === 1 ? '' : 'es'} (as of ${p.as_of})`;
  const lines = p.matches.map((m, i) => {
    const s = m.score_snapshot;
    const pct = p.strategy === 'house_hack' ? '' : ` ${p.strategy} pct ${fmtPct(s[p.strategy])},`;
    return `${i + 1}. ${m.address} ${m.zip} - ${fmtUsd(m.price)};${pct} ARV ${fmtUsd(s.arv)} (${s.arv_method}, conf ${s.arv_confidence})\n${m.url}`;
  });
  const foot = `model ${p.model_versions.model} / underwrite ${p.model_versions.underwrite} / serving ${p.model_versions.serving}. Automated screening numbers, not an appraisal.`;
  const text = [head, ...lines, foot].join('\n\n');
  const max = ALERTS.v.telegram_max_text_chars;
  return text.length <= max ? text : `${text.slice(0, max - 2)}\n…`;
}

/** The exact sendMessage body stored in the outbox. */
export function telegramBody(chatId: string, p: AlertPayload): string {
  return JSON.stringify({ chat_id: chatId, text: renderTelegramText(p), disable_web_page_preview: true });
}

export async function sendTelegramAttempt(settings: TelegramSettings, rec: OutboxRecord, timeoutMs: number): Promise<AttemptOutcome> {
  if (!settings.botToken) return { ok: false, status: null, diagnostic: 'telegram_not_configured: AVM_TELEGRAM_BOT_TOKEN is unset', permanent: true };
  let url: URL;
  try {
    url = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/bot${settings.botToken}/sendMessage`);
  } catch {
    return { ok: false, status: null, diagnostic: 'telegram_not_configured: base URL is invalid', permanent: true };
  }
  return postOnce({ url, headers: { 'user-agent': 'cook-lake-avm-alerts/1' }, body: rec.body, timeoutMs });
}
