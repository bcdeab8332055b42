// valuationContractDocument: generated from the schemas and the registry, JSON-serializable, schema open.
import { describe, expect, it } from 'vitest';
import { valuationContractDocument } from '../../src/contracts/valuation-contract.js';
import { DISCLOSURE } from '../../src/contracts/valuation.js';

describe('valuationContractDocument()', () => {
  it('publishes the enums, gates and an open JSON Schema of the Valuation object', () => {
    const doc = JSON.parse(JSON.stringify(valuationContractDocument()));
    expect(doc.arv_methods).not.toContain('nbhd_premium');
    expect(doc.suppression_reasons).toHaveLength(6);
    expect(doc.gates.dispersion_fsd_frac).toBe(0.35);
    expect(doc.disclosure).toBe(DISCLOSURE);
    expect(doc.schema.required).toEqual(expect.arrayContaining(['model_version', 'as_of', 'inputs_hash', 'subject', 'arv', 'value_as_is', 'rent', 'rehab', 'tax', 'warnings', 'disclosure']));
    expect(doc.schema.additionalProperties).toEqual({});
  });
});
