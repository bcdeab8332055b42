// `npm run bench -- faults`: the kill -9 fault suite (bench/faults/suite.ts) with 100 kills (10 when CI=true; set
// AVM_FAULT_KILLS to choose) and 4 writing keys, then the integrity case (bench/faults/integrity.ts: a store that
// fails verification is refused); writes bench/results/faults.json with the load average beside it.
import { writeBenchResult } from './results-file.js';
import { runIntegrityFault } from './faults/integrity.js';
import { runFaultSuite } from './faults/suite.js';

export async function run(): Promise<Record<string, unknown>> {
  const kills = Number(process.env.AVM_FAULT_KILLS ?? (process.env.CI === 'true' ? 10 : 100));
  const result = await runFaultSuite({ kills, writers: 4, log: (line) => process.stderr.write(`${line}\n`) });
  const integrity = await runIntegrityFault();
  const doc = {
    command: 'npm run bench -- faults', ...result, integrity,
    pass: result.lost === 0 && result.duplicated === 0 && result.visible_to_another_owner === 0 && integrity.refused,
  };
  writeBenchResult('faults', doc);
  if (!doc.pass) throw new Error(`fault suite failed: ${JSON.stringify({ examples: result.examples, integrity })}`);
  return doc;
}
