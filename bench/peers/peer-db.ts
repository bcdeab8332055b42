// One small door over each peer database, so the bench drives PostgreSQL and DuckDB with the same calls: run a
// statement, read rows (numbers), a prepared per-subject query returning its first column, and CSV bulk load
// (PostgreSQL's server-side COPY FROM a file in the cluster's folder, DuckDB's COPY FROM).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';

export type Values = ReadonlyArray<number | null>;
export type SqlPeer = {
  name: string;
  exec(sql: string): Promise<void>;
  /** Rows as arrays of numbers (bigints and numeric strings converted; NULL stays null). */
  rows(sql: string): Promise<Array<Array<number | null>>>;
  /** A prepared query; each call returns its first column. */
  prepare(sql: string): Promise<(values: Values) => Promise<number[]>>;
  loadCsv(table: string, columns: string, file: string): Promise<void>;
  close(): Promise<void>;
};

const toNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function duckdbPeer(): Promise<SqlPeer> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn: DuckDBConnection = await instance.connect();
  return {
    name: 'duckdb',
    exec: async (sql) => void (await conn.run(sql)),
    async rows(sql) {
      const r = await conn.runAndReadAll(sql);
      return r.getRows().map((row) => row.map(toNum));
    },
    async prepare(sql) {
      const st = await conn.prepare(sql);
      return async (values) => {
        st.bind(values as Array<number | null>);
        const r = await st.runAndReadAll();
        return r.getColumns()[0]?.map((v) => Number(v)) ?? [];
      };
    },
    loadCsv: async (table, columns, file) => void (await conn.run(`COPY ${table} (${columns}) FROM '${file}' (FORMAT csv, HEADER false)`)),
    close: async () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

export async function postgresPeer(url: string): Promise<SqlPeer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let n = 0;
  return {
    name: 'postgis',
    exec: async (sql) => void (await client.query(sql)),
    async rows(sql) {
      const r = await client.query({ text: sql, rowMode: 'array' });
      return (r.rows as unknown[][]).map((row) => row.map(toNum));
    },
    async prepare(sql) {
      const name = `q${n++}`;
      return async (values) => {
        const r = await client.query({ name, text: sql, values: values as Array<number | null>, rowMode: 'array' });
        return (r.rows as unknown[][]).map((row) => Number(row[0]));
      };
    },
    loadCsv: async (table, columns, file) => void (await client.query(`COPY ${table} (${columns}) FROM '${file}' WITH (FORMAT csv)`)),
    close: () => client.end(),
  };
}
