// championVersion: the champion every request's stamp names, read from the registry document's stored bytes and
// decoded only when they change (a submission, a rollback, a write by another process).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { championVersion, MODEL_REGISTRY_KEY, openModelRegistry, type ModelRegistryDoc } from '../../src/registry/model-registry.js';
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import { openStore, type Store } from '../../src/store/store.js';
import { FIXED_TABLE } from './fixed-table.js';

const PASS = { passed: true, checks: [{ gate: 'cod', value: 9.3, target: '<= 10', passed: true }] };
const FAIL = { passed: false, checks: [{ gate: 'cod', value: 16.2, target: '<= 10', passed: false }] };
const table = (v: string) => ({ ...FIXED_TABLE, version: v });

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'avm-champion-'));
  store = openStore(dir);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('championVersion(store)', () => {
  it('names the champion document() names, through submissions and a rollback, decoding only changed bytes', async () => {
    const reg = openModelRegistry(store);
    const named = () => reg.document().champion?.calibrationVersion ?? null;
    expect(championVersion(store)).toBeNull();
    await reg.submit(table('cal-1'), PASS);
    expect(championVersion(store)).toBe('cal-1');
    const decode = vi.spyOn(openSubDb(store.env, DB_NAMES.calibration), 'get');
    expect(championVersion(store)).toBe('cal-1');
    expect(decode, 'unchanged bytes are not decoded again').not.toHaveBeenCalled();
    await reg.submit(table('cal-2'), FAIL); // recorded rejected: the champion stays, the document changes
    decode.mockClear(); // the submission read the document itself
    expect(championVersion(store)).toBe('cal-1');
    expect(decode, 'changed bytes are decoded once').toHaveBeenCalledTimes(1);
    expect(championVersion(store)).toBe('cal-1');
    expect(decode).toHaveBeenCalledTimes(1);
    await reg.submit(table('cal-3'), PASS);
    expect(championVersion(store)).toBe('cal-3');
    await reg.rollback();
    expect([championVersion(store), named()]).toEqual(['cal-1', 'cal-1']);
  });

  it('sees a document written past the registry (as another process writes it)', async () => {
    const reg = openModelRegistry(store);
    await reg.submit(table('cal-1'), PASS);
    expect(championVersion(store)).toBe('cal-1');
    const doc = reg.document();
    const written: ModelRegistryDoc = { ...doc, champion: { ...doc.champion!, calibrationVersion: 'cal-elsewhere' } };
    await openSubDb(store.env, DB_NAMES.calibration).put(MODEL_REGISTRY_KEY, written);
    expect(championVersion(store)).toBe('cal-elsewhere');
  });
});
