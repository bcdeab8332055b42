// Public receiver entry: the one import a webhook receiver needs (`verifyAlertSignature`), with no store or HTTP code.
// Pass the raw request body exactly as received and Node's IncomingHttpHeaders (or a fetch Headers object).
// Stock Standard Webhooks libraries can verify the `webhook-*` headers instead: give them the profile secret as is
// when it is written `whsec_<base64>`, else its UTF-8 bytes (`format: 'raw'`). Dedupe on `webhook-id` or (listing_id, price).
export { verifyAlertSignature, type VerifyResult, type VerifyFailure, type HeaderBag, type RawBody } from './signature.js';
