// Types of scripts/build-native.mjs for the TypeScript callers (tests).
export type TargetCpu = { target_cpu: 'x86-64-v3' | 'default'; requires: string[] };
export const TARGET_CPU_FILE: string;
export const X86_64_V3_FLAGS: string[];
export function cpuinfoFlags(text: string): Set<string>;
export function targetCpu(opts?: { cpuinfo?: string | null; arch?: string; portable?: boolean }): TargetCpu;
export function stricterTargetCpu(earlier: TargetCpu | null, cpu: TargetCpu): TargetCpu;
export function recordTargetCpu(root: string, cpu: TargetCpu): void;
export function nativeDigest(root?: string): string;
export function buildNative(opts?: { root?: string; force?: boolean }): { built: boolean; skipped?: string; target?: TargetCpu['target_cpu'] };
