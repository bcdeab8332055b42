// The native addon built for the build machine's CPU level (scripts/build-native.mjs targetCpu: x86-64-v3 where every
// one of its features is present) and the loader's check before it loads one (src/kernel/native.ts cpuProblem): a
// build for features this CPU lacks is refused with its reason (the WASM kernel serves) instead of dying on an illegal
// instruction. The records of such a build equal the WASM kernel's bit for bit (test/kernel/parity.test.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuinfoFlags, recordTargetCpu, stricterTargetCpu, targetCpu, TARGET_CPU_FILE, X86_64_V3_FLAGS } from '../../scripts/build-native.mjs';
import { ROOT_DIR } from '../../src/config.js';
import { cpuProblem, loadNative, missingCpuFlags, type TargetCpu } from '../../src/kernel/native.js';

/** A /proc/cpuinfo of two processors (the first one's flags are read), with `flags` on each. */
const cpuinfo = (flags: readonly string[]): string =>
  [0, 1].map((n) => `processor\t: ${n}\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme sse sse2 ${flags.join(' ')}\nbugs\t\t: sysret_ss_attrs\n`).join('\n');
const V3 = { target_cpu: 'x86-64-v3' as const, requires: X86_64_V3_FLAGS } satisfies TargetCpu;
const PATH = '/x/native/avm-native.linux-x64-gnu.node';

describe('targetCpu (the build)', () => {
  it('builds for x86-64-v3 only on x64 with every one of its features, unless asked for a portable build', () => {
    expect(targetCpu({ cpuinfo: cpuinfo(X86_64_V3_FLAGS), arch: 'x64', portable: false })).toEqual(V3);
    for (const dropped of ['avx2', 'fma', 'abm', 'movbe']) {
      expect(targetCpu({ cpuinfo: cpuinfo(X86_64_V3_FLAGS.filter((f) => f !== dropped)), arch: 'x64', portable: false })).toEqual({ target_cpu: 'default', requires: [] });
    }
    expect(targetCpu({ cpuinfo: cpuinfo(X86_64_V3_FLAGS), arch: 'arm64', portable: false }).target_cpu).toBe('default');
    expect(targetCpu({ cpuinfo: cpuinfo(X86_64_V3_FLAGS), arch: 'x64', portable: true }).target_cpu).toBe('default');
    expect(targetCpu({ cpuinfo: null, arch: 'x64', portable: false }).target_cpu).toBe('default'); // no /proc/cpuinfo
  });

  it('reads the flags line of a cpuinfo text, not its other lines, as the loader does', () => {
    const flags = cpuinfoFlags(cpuinfo(['avx2', 'fma']));
    expect([...flags]).toEqual(['fpu', 'vme', 'sse', 'sse2', 'avx2', 'fma']);
    expect(cpuinfoFlags('processor\t: 0\nmodel name\t: avx2 fma\n').size).toBe(0);
    for (const text of [cpuinfo(['avx2', 'fma']), cpuinfo([]), 'processor\t: 0\nmodel name\t: avx2 fma\n']) {
      const asked = [...X86_64_V3_FLAGS, 'fpu', 'sse2'];
      expect(missingCpuFlags(asked, text)).toEqual(asked.filter((f) => !cpuinfoFlags(text).has(f)));
    }
  });
});

describe('recordTargetCpu', () => {
  it('records the stricter target while a build runs, so an addon a failed build leaves is never held to less', () => {
    const portable = { target_cpu: 'default' as const, requires: [] };
    expect(stricterTargetCpu(V3, portable)).toEqual(V3); // a v3 addon stays behind while a portable build runs
    expect(stricterTargetCpu(portable, V3)).toEqual(V3);
    expect(stricterTargetCpu(null, portable)).toEqual(portable);
    expect(stricterTargetCpu({ target_cpu: 'default', requires: 'avx2' as unknown as string[] }, portable)).toEqual(portable); // a damaged record
  });

  it('writes the record into a tree that has no native/ yet (a fresh clone)', () => {
    const root = mkdtempSync(join(tmpdir(), 'avm-native-target-'));
    try {
      recordTargetCpu(root, V3);
      expect(JSON.parse(readFileSync(join(root, TARGET_CPU_FILE), 'utf8'))).toEqual(V3);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('cpuProblem (the loader, before it loads)', () => {
  it('lets a default build or a CPU with every required feature load', () => {
    expect(cpuProblem(PATH, null, cpuinfo([]))).toBeNull(); // built before the target was recorded: the default
    expect(cpuProblem(PATH, { target_cpu: 'default', requires: [] }, null)).toBeNull();
    expect(cpuProblem(PATH, V3, cpuinfo(X86_64_V3_FLAGS))).toBeNull();
  });

  it('refuses a build for features the CPU lacks, naming them and how to rebuild', () => {
    const older = cpuinfo(X86_64_V3_FLAGS.filter((f) => !['avx2', 'bmi2', 'fma'].includes(f)));
    expect(missingCpuFlags(V3.requires, older)).toEqual(['avx2', 'bmi2', 'fma']);
    expect(cpuProblem(PATH, V3, older)).toBe(`${PATH} was built for x86-64-v3 and this CPU lacks avx2, bmi2, fma (rebuild it on this machine: npm run build:native)`);
  });

  it('refuses when the CPU cannot be read (no feature is confirmed)', () => {
    expect(missingCpuFlags(V3.requires, null)).toEqual(V3.requires);
    expect(cpuProblem(PATH, V3, null)).toContain('this CPU lacks avx, avx2');
  });
});

describe.skipIf(!existsSync(join(ROOT_DIR, TARGET_CPU_FILE)))('the addon built here', () => {
  it('records the target this machine gets, and loads on it', () => {
    const recorded = JSON.parse(readFileSync(join(ROOT_DIR, TARGET_CPU_FILE), 'utf8')) as TargetCpu;
    expect(recorded).toEqual(targetCpu());
    expect(loadNative()).toMatchObject({ addon: expect.anything() });
  });
});
