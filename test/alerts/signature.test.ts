import { describe, expect, it } from 'vitest';
import { signAlert, standardSignature, standardWebhookKey, svcSignatureHex, verifyAlertSignature } from '../../src/alerts/signature.js';
import { verifyAlertSignature as publicVerify } from '../../src/alerts/verify.js';

// Known-answer vector, computed independently of this code with OpenSSL 3:
//   $ printf '%s' '1700000000.{"profile":{"id":"p1","name":"South side BRRRR"},"matches":[]}' \
//       | openssl dgst -sha256 -hmac 'test_secret_0123456789'
//   SHA2-256(stdin)= 6914689af5c0900c3cc4774bdf912e1172e77838b8953728e1faacd236cecdbb
const KAT = {
  secret: 'test_secret_0123456789',
  ts: 1_700_000_000,
  body: '{"profile":{"id":"p1","name":"South side BRRRR"},"matches":[]}',
  hex: '6914689af5c0900c3cc4774bdf912e1172e77838b8953728e1faacd236cecdbb',
};

function headersFor(body: string, secret: string, ts: number): Record<string, string> {
  const h = signAlert(body, secret, ts, 'al_test');
  return { 'x-svc-timestamp': h['X-SVC-Timestamp'], 'x-svc-signature': h['X-SVC-Signature'] };
}

describe('svcSignatureHex(rawBody, secret, ts)', () => {
  it('matches the OpenSSL known-answer vector', () => {
    expect(svcSignatureHex(KAT.body, KAT.secret, KAT.ts)).toBe(KAT.hex);
  });
  it('gives the same answer for the body as bytes', () => {
    expect(svcSignatureHex(Buffer.from(KAT.body), KAT.secret, KAT.ts)).toBe(KAT.hex);
  });
});

describe('standardSignature(rawBody, secret, id, ts)', () => {
  it('matches OpenSSL for a whsec_ secret (key = base64-decoded part)', () => {
    // Inputs of the Standard Webhooks specification's example. Derived with:
    //   $ printf '%s' 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' | openssl dgst -sha256 -mac HMAC \
    //       -macopt hexkey:$(printf '%s' 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' | base64 -d | xxd -p -c 256) -binary | base64
    //   g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=
    const sig = standardSignature('{"test": 2432232314}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330);
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
  it('matches OpenSSL for a plain secret (key = UTF-8 bytes)', () => {
    //   $ printf '%s' 'al_x.1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'plain_secret_0123456789' -binary | base64
    //   KgIyc7qXJUwOcURZTLofiYl/5jvPk6nkgnzMNcW18/o=
    expect(standardSignature('{"a":1}', 'plain_secret_0123456789', 'al_x', 1_700_000_000)).toBe('v1,KgIyc7qXJUwOcURZTLofiYl/5jvPk6nkgnzMNcW18/o=');
    expect(standardWebhookKey('plain_secret_0123456789').toString('utf8')).toBe('plain_secret_0123456789');
  });
});

describe('signAlert(rawBody, secret, ts, id)', () => {
  it('emits the spec headers and the Standard Webhooks headers with one timestamp', () => {
    const h = signAlert(KAT.body, KAT.secret, KAT.ts, 'al_1');
    expect(h).toEqual({
      'X-SVC-Timestamp': '1700000000',
      'X-SVC-Signature': `sha256=${KAT.hex}`,
      'webhook-id': 'al_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': standardSignature(KAT.body, KAT.secret, 'al_1', KAT.ts),
    });
  });
});

describe('verifyAlertSignature(rawBody, headers, secret, nowSec)', () => {
  const good = { 'X-SVC-Timestamp': String(KAT.ts), 'X-SVC-Signature': `sha256=${KAT.hex}` };

  it('accepts the known-answer vector (header names in any case) from the public entry', () => {
    expect(publicVerify(KAT.body, good, KAT.secret, KAT.ts)).toEqual({ ok: true });
    expect(verifyAlertSignature(KAT.body, { 'x-svc-timestamp': String(KAT.ts), 'X-Svc-Signature': `sha256=${KAT.hex.toUpperCase()}` }, KAT.secret, KAT.ts)).toEqual({ ok: true });
  });
  it('accepts a fetch Headers object and a one-element string[] (IncomingHttpHeaders shape)', () => {
    expect(verifyAlertSignature(KAT.body, new Headers(good), KAT.secret, KAT.ts)).toEqual({ ok: true });
    expect(verifyAlertSignature(KAT.body, { 'x-svc-timestamp': [String(KAT.ts)], 'x-svc-signature': [`sha256=${KAT.hex}`] }, KAT.secret, KAT.ts)).toEqual({ ok: true });
  });
  it('rejects a tampered body', () => {
    const tampered = KAT.body.replace('BRRRR', 'BRRRX');
    expect(verifyAlertSignature(tampered, good, KAT.secret, KAT.ts)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });
  it('rejects the wrong secret', () => {
    expect(verifyAlertSignature(KAT.body, good, 'another_secret_0123456789', KAT.ts)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });
  it('rejects a timestamp header that was changed after signing', () => {
    const moved = { ...good, 'X-SVC-Timestamp': String(KAT.ts + 1) };
    expect(verifyAlertSignature(KAT.body, moved, KAT.secret, KAT.ts)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });
  it('accepts 299 s and 300 s of skew both ways, rejects 301 s in the past and in the future', () => {
    const signedAt = 1_700_000_000;
    const h = headersFor(KAT.body, KAT.secret, signedAt);
    for (const skew of [299, 300, -299, -300]) expect(verifyAlertSignature(KAT.body, h, KAT.secret, signedAt + skew)).toEqual({ ok: true });
    expect(verifyAlertSignature(KAT.body, h, KAT.secret, signedAt + 301)).toEqual({ ok: false, reason: 'timestamp_out_of_window' });
    expect(verifyAlertSignature(KAT.body, h, KAT.secret, signedAt - 301)).toEqual({ ok: false, reason: 'timestamp_out_of_window' });
  });
  it('rejects missing, malformed, repeated and oversized headers without throwing', () => {
    const cases: Array<[Record<string, string | string[] | undefined>, string]> = [
      [{}, 'missing_timestamp'],
      [{ 'x-svc-timestamp': String(KAT.ts) }, 'missing_signature'],
      [{ ...good, 'X-SVC-Timestamp': '17e8' }, 'malformed_timestamp'],
      [{ ...good, 'X-SVC-Timestamp': '-1700000000' }, 'malformed_timestamp'],
      [{ ...good, 'X-SVC-Timestamp': [String(KAT.ts), String(KAT.ts)] }, 'malformed_timestamp'],
      [{ ...good, 'X-SVC-Signature': KAT.hex }, 'malformed_signature'],
      [{ ...good, 'X-SVC-Signature': `sha256=${KAT.hex.slice(0, 62)}` }, 'malformed_signature'],
      [{ ...good, 'X-SVC-Signature': `sha1=${KAT.hex.slice(0, 40)}` }, 'malformed_signature'],
      [{ ...good, 'X-SVC-Signature': `sha256=${'zz'.repeat(32)}` }, 'malformed_signature'],
      [{ ...good, 'X-SVC-Signature': `sha256=${KAT.hex}${'0'.repeat(600)}` }, 'header_too_long'],
      [{ ...good, 'X-SVC-Timestamp': '1'.repeat(513) }, 'header_too_long'],
    ];
    for (const [headers, reason] of cases) {
      expect(verifyAlertSignature(KAT.body, headers, KAT.secret, KAT.ts), reason).toEqual({ ok: false, reason });
    }
  });
  it('returns a value, never throws, for a hostile header object', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('boom'); } });
    expect(verifyAlertSignature(KAT.body, hostile, KAT.secret, KAT.ts)).toEqual({ ok: false, reason: 'malformed_signature' });
    expect(verifyAlertSignature(KAT.body, good, KAT.secret, Number.NaN)).toEqual({ ok: false, reason: 'timestamp_out_of_window' });
  });
});
