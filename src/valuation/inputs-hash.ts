// inputs_hash: the reproducibility fingerprint of a valuation over exactly the inputs the spec lists. Not
// anonymization, not a security hash, not a credential. The document and the form it is digested in are versioned by
// HASH_DOMAIN: v1 was canonical JSON text (canonical/json.ts); v2 (issue 17) canonical bytes (canonical/bytes.ts
// documents the form): the same members, key-sorted, deterministic, but numbers as IEEE-754 bytes rather than decimal
// text and a record array's keys once; v3 (issue 17) names the rejected candidates in normal form, their snapshot rows
// by reason, rather than as their display records (pin, date, price, place and distance are facts of a row of the
// snapshot named in the provenance, the distance of the row and the subject): a dense subject's hundreds of rejections
// cost ~70 µs of encoding as records.
import { createHash } from 'node:crypto';
import type { Subject } from '../contracts/subject.js';
import { canonicalBytes } from './canonical/bytes.js';
import type { Json } from './canonical/json.js';

export type { Json } from './canonical/json.js';

/**
 * The spec's listed inputs, one member each. Everything a valuation depends on goes in exactly one member;
 * nothing time-of-day (as_of, request ids) goes in, so a re-run on the same inputs gives the same hash.
 */
export type InputsHashParts = {
  /** Subject identity: the Subject object as valued. */
  subject: Subject;
  /** Tract inputs: geoid, segment, tract premium / tax rate rows the valuation read; null outside the tracts. */
  tract: Json;
  /** Assumptions: caller overrides and defaults in effect (prop_type, scope, owner_occupied, …). */
  assumptions: Json;
  /**
   * Normalized evidence: comps in kernel order, the rejected candidates (rejectedByReason), the time index used,
   * flip-pair legs, the subject's own earlier sale with the weight that moved the value, and as the as-is value read
   * it (each absent without one).
   */
  evidence: { comps: Json[]; rejected: RejectedRows; timeIndex: Json; flipPairs: Json[]; priorSale?: Json; asIsPriorSale?: Json };
  /**
   * Source provenance: snapshot id (and the digest of the comp sales when they are not the snapshot's: the rows the
   * evidence names are theirs), comp source (fallback chain), data vintages.
   */
  provenance: Json;
  /** Asset slices: the calibration-table row, hedonic coefficients, area-premium row actually used. */
  assetSlices: Json;
  /** Model and registry versions (model_version, constants REGISTRY_VERSION, calibration/hedonic versions). */
  versions: { model: string; registry: string; [key: string]: string | null | undefined };
};

/** Prefix bound into every digest; bump it whenever the document or its canonical form changes. */
export const HASH_DOMAIN = 'avm-inputs-hash/v3';

/** Rejected candidates in normal form: reason → the snapshot rows rejected for it, ascending. */
export type RejectedRows = Record<string, number[]>;

/**
 * The normal form of a comp search's rejections ((snapshot row, reason) pairs, ascending by row as the kernel lists
 * them): the rows grouped by reason, each group ascending. The same pairs give the same form, and any other pairs
 * another (a row is rejected once, for one reason).
 */
export function rejectedByReason(rejected: ReadonlyArray<{ row: number; reason: string }>): RejectedRows {
  const out: RejectedRows = {};
  for (const r of rejected) (out[r.reason] ??= []).push(r.row);
  return out;
}

/** The document the hash covers: the listed members under their spec names (nothing else of `parts`). */
export function inputsDocument(parts: InputsHashParts): Record<string, unknown> {
  return {
    subject: parts.subject,
    tract: parts.tract,
    assumptions: parts.assumptions,
    evidence: parts.evidence,
    provenance: parts.provenance,
    asset_slices: parts.assetSlices,
    versions: parts.versions,
  };
}

/** SHA-256 hex of UTF-8(HASH_DOMAIN + '\n') followed by canonicalBytes(inputsDocument(parts)). Stable across runs, processes and machines. */
export function inputsHash(parts: InputsHashParts): string {
  return createHash('sha256').update(`${HASH_DOMAIN}\n`, 'utf8').update(canonicalBytes(inputsDocument(parts))).digest('hex');
}
