// Encodes the joined sales and parcel tables as Arrow IPC (stream format) with exactly the columns of columns.ts.
// Buffers are built directly from typed arrays (no row objects) and nothing time-dependent enters the bytes.
import { Field, Float32, Float64, Int16, Int32, Int8, RecordBatch, Schema, Struct, Table, Uint16, Uint32, Uint8, Utf8, makeData, tableToIPC, type DataType, type Data } from 'apache-arrow';
import { CONDITION_SOURCE_CODE, PARCEL_COLUMNS as P, SALES_COLUMNS as S } from './columns.js';

type Numeric = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array | Uint32Array;
type Col = { name: string; type: DataType; data: Data; nullable: boolean };

export type SalesColumnsIn = {
  pins: (i: number) => string; parcelIdx: Uint32Array; county: Uint8Array; lat: Float64Array; lon: Float64Array; saleDay: Int32Array;
  dateKnown: Uint8Array; priceUsd: Float64Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; units: Uint8Array;
  ptype: Uint8Array; condition: Uint8Array; deedType: Uint8Array; numParcels: Uint16Array; tractIdx: Uint16Array;
  /** Absent (open-data columns, older snapshots re-encoded): written as NaN / unknown. */
  conditionProb?: Float32Array; conditionSource?: Uint8Array; length: number;
};

export type ParcelColumnsIn = {
  pins: string[]; county: Uint8Array; lat: Float64Array; lon: Float64Array; zip: string[]; tractIdx: Uint16Array; classText: string[];
  ptype: Uint8Array; units: Uint8Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; condition: Uint8Array; address: (string | null)[]; length: number;
};

/** Schema metadata key holding the snapshot's tract list (JSON array of GEOIDs, sorted); tract_idx indexes it. */
export const TRACTS_METADATA_KEY = 'tracts';
export const FORMAT_METADATA_KEY = 'format';

function num(name: string, type: DataType, values: Numeric): Col {
  return { name, type, data: makeData({ type, length: values.length, data: values } as never), nullable: false };
}

/** Utf8 column; `null` entries become nulls only when `nullable`. Strings are written straight into one buffer. */
function utf8(name: string, n: number, at: (i: number) => string | null, nullable = false): Col {
  const offsets = new Int32Array(n + 1);
  const nulls = nullable ? new Uint8Array((n + 7) >> 3) : null;
  let buf = Buffer.allocUnsafe(Math.max(64, n * 16));
  let total = 0;
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const s = at(i);
    if (s === null) nullCount++;
    else {
      if (nulls) nulls[i >> 3] |= 1 << (i & 7);
      if (total + s.length * 3 > buf.length) {
        const next = Buffer.allocUnsafe(Math.max(buf.length * 2, total + s.length * 3));
        buf.copy(next, 0, 0, total);
        buf = next;
      }
      total += buf.write(s, total, 'utf8');
    }
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  bytes.set(buf.subarray(0, total));
  const type = new Utf8();
  const props = { type, length: n, valueOffsets: offsets, data: bytes, nullBitmap: nullCount > 0 ? nulls! : undefined, nullCount };
  return { name, type, data: makeData(props as never), nullable };
}

function encode(cols: Col[], metadata: Map<string, string>): Uint8Array {
  const fields = cols.map((c) => new Field(c.name, c.type, c.nullable));
  const schema = new Schema(fields, metadata);
  const length = cols[0].data.length;
  const struct = makeData({ type: new Struct(fields), length, nullCount: 0, children: cols.map((c) => c.data) } as never);
  return tableToIPC(new Table([new RecordBatch(schema, struct as never)]), 'stream');
}

const meta = (format: string, tracts: readonly string[]): Map<string, string> =>
  new Map([[FORMAT_METADATA_KEY, format], [TRACTS_METADATA_KEY, JSON.stringify(tracts)]]);

export function encodeSales(s: SalesColumnsIn, tracts: readonly string[]): Uint8Array {
  return encode([
    utf8(S.pin, s.length, s.pins), num(S.parcelIdx, new Uint32(), s.parcelIdx), num(S.county, new Uint8(), s.county),
    num(S.lat, new Float64(), s.lat), num(S.lon, new Float64(), s.lon), num(S.saleDay, new Int32(), s.saleDay),
    num(S.dateKnown, new Uint8(), s.dateKnown), num(S.priceUsd, new Float64(), s.priceUsd), num(S.sqft, new Float64(), s.sqft),
    num(S.beds, new Int8(), s.beds), num(S.yearBuilt, new Int16(), s.yearBuilt), num(S.units, new Uint8(), s.units),
    num(S.ptype, new Uint8(), s.ptype), num(S.condition, new Uint8(), s.condition), num(S.deedType, new Uint8(), s.deedType),
    num(S.numParcels, new Uint16(), s.numParcels), num(S.tractIdx, new Uint16(), s.tractIdx),
    num(S.conditionProb, new Float32(), s.conditionProb ?? new Float32Array(s.length).fill(NaN)),
    num(S.conditionSource, new Uint8(), s.conditionSource ?? new Uint8Array(s.length).fill(CONDITION_SOURCE_CODE.unknown)),
  ], meta('avm-sales/1', tracts));
}

export function encodeParcels(p: ParcelColumnsIn, tracts: readonly string[]): Uint8Array {
  return encode([
    utf8(P.pin, p.length, (i) => p.pins[i]), num(P.county, new Uint8(), p.county), num(P.lat, new Float64(), p.lat), num(P.lon, new Float64(), p.lon),
    utf8(P.zip, p.length, (i) => p.zip[i]), num(P.tractIdx, new Uint16(), p.tractIdx), utf8(P.classCode, p.length, (i) => p.classText[i]),
    num(P.ptype, new Uint8(), p.ptype), num(P.units, new Uint8(), p.units), num(P.sqft, new Float64(), p.sqft), num(P.beds, new Int8(), p.beds),
    num(P.yearBuilt, new Int16(), p.yearBuilt), num(P.condition, new Uint8(), p.condition), utf8(P.address, p.length, (i) => p.address[i], true),
  ], meta('avm-parcels/1', tracts));
}

/** The tract list stored with a snapshot or parcel table. */
export function tractsOf(table: Table): string[] {
  const raw = table.schema.metadata.get(TRACTS_METADATA_KEY);
  return raw ? (JSON.parse(raw) as string[]) : [];
}
