// Types of scripts/build.mjs for the TypeScript callers (tests).
export function sourceDigest(root?: string): string;
export function build(opts?: { root?: string; force?: boolean }): boolean;
