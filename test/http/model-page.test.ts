// GET /model: the stored calibration report of the champion (or, with no champion, the latest calibration's, labelled
// not promoted with its failed gates) as one HTML page, with the registry's champion and rollback and the data
// vintages; served under a Content-Security-Policy that allows no script and nothing fetched.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { openModelRegistry } from '../../src/registry/model-registry.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { openStore } from '../../src/store/store.js';
import { calibrate, type CalibrationReport } from '../../src/valuation/calibration/job.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { pointEverywhere } from '../support/scoring-corpus.js';

let calibrated: ServiceHandle;
let fresh: ServiceHandle;
let report: CalibrationReport;

async function copyOfSmallCorpus(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'avm-model-page-'));
  cpSync(await smallCorpusDir(), dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  const dir = await copyOfSmallCorpus();
  const store = openStore(dir);
  try {
    // As first start runs it: no report options, so no ground truth is read.
    ({ report } = await calibrate(store, { dataDir: dir, resultsDir: null, now: () => new Date('2026-11-02T12:00:00Z') }));
  } finally {
    await store.close();
  }
  calibrated = await startService(testConfig(dir), { installSignalHandlers: false });
  fresh = await startService(testConfig(await copyOfSmallCorpus()), { installSignalHandlers: false });
}, 300_000);
afterAll(async () => {
  await calibrated?.close();
  await fresh?.close();
});

const get = async (svc: ServiceHandle, path: string, init?: RequestInit) => {
  const res = await fetch(`${svc.url}${path}`, init);
  return { res, text: await res.text() };
};

function expectPageHeaders(res: Response): void {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy') ?? '';
  for (const d of ["default-src 'none'", "style-src 'unsafe-inline'", 'img-src data:', "frame-ancestors 'none'"]) expect(csp).toContain(d);
  expect(csp).not.toMatch(/script-src/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('GET /model', () => {
  it('shows the stored report of the calibration with its version, snapshot, gates and registry standing', async () => {
    const { res, text } = await get(calibrated, '/model');
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).not.toMatch(/<script/i);
    expect(text).toContain(report.version);
    expect(text).toContain(report.snapshotId);
    for (const c of report.gates.checks) expect(text).toContain(`>${c.gate}<`);
    expect(text).toContain(report.holdout.split);
    // Linked from the map and back: the served page (not the CLI file) carries the one link, to the map at /.
    expect(text.match(/href="(?!#)[^"]*"/g)).toEqual(['href="/"']);
    // The corpus has truth/ beside it, yet a calibration without report options reads none of it: no oracle figures.
    expect(report.rows.every((r) => r.oracleN === 0 && r.oracleMdape === null && r.oracleCoverage80 === null)).toBe(true);
    if (report.promoted) {
      expect(text).toContain('Champion: serving uses this calibration');
    } else {
      // Seed 7's test corpus: the gates reject the calibration, so there is no champion and serving shows ranges.
      expect(text).toContain('Not promoted: serving shows ranges only');
      const failed = report.gates.checks.filter((c) => !c.passed);
      expect(failed.length).toBeGreaterThan(0);
      const standing = text.slice(text.indexOf('id="standing"'), text.indexOf('</section>', text.indexOf('id="standing"')));
      for (const c of failed) expect(standing).toContain(`>${c.gate}<`);
    }
  });

  it('names the registry champion and rollback once a calibration is promoted, and keeps the champion\'s report after a newer one', async () => {
    const registry = openModelRegistry(calibrated.svc.store);
    const table = registry.getTable(report.version)!;
    await registry.submit(table, { passed: true, checks: [] });
    let page = (await get(calibrated, '/model')).text;
    expect(page).toContain('Champion: serving uses this calibration');
    // A second promotion (a table with no stored report): our calibration becomes the rollback pointer.
    const other = pointEverywhere()!;
    await registry.submit(other, { passed: true, checks: [] });
    page = (await get(calibrated, '/model')).text;
    const regSection = page.slice(page.indexOf('id="registry"'));
    expect(regSection).toMatch(new RegExp(`champion</th><td>${other.version}`));
    expect(regSection).toMatch(new RegExp(`rollback</th><td>${report.version}`));
    expect(page).toContain(`Not the champion: serving uses ${other.version}`);
    expect(page).toContain(report.version);
  });

  it('lists the data vintages: current snapshot, corpus vintage, last ingest, model version, ISO dates', async () => {
    const { text } = await get(calibrated, '/model');
    const vintages = text.slice(text.indexOf('id="vintages"'));
    expect(vintages).toContain(calibrated.svc.store.currentSnapshotId()!);
    expect(vintages).toContain(calibrated.svc.store.corpusVintage()!);
    expect(vintages).toMatch(/last ingest<\/th><td>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });

  it('on a store with no calibration yet: 200 and a page saying so, like /api/model-registry\'s null champion', async () => {
    const { res, text } = await get(fresh, '/model');
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(text).toContain('No calibration report is stored yet');
    expect(text).not.toMatch(/<script/i);
    expect(text).toContain(fresh.svc.store.currentSnapshotId()!);
  });

  it('is served in one spelling only: /model/ and /Model are 404 naming /model; POST is 405 with Allow', async () => {
    for (const path of ['/model/', '/Model', '/MODEL']) {
      const { res, text } = await get(fresh, path);
      expect(res.status, path).toBe(404);
      const body = ErrorBodySchema.parse(JSON.parse(text));
      expect(body.error.code).toBe('not_found');
      expect(JSON.stringify(body)).toContain('"canonical_path":"/model"');
    }
    const { res, text } = await get(fresh, '/model', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(ErrorBodySchema.parse(JSON.parse(text)).error.code).toBe('method_not_allowed');
  });
});
