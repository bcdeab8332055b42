// The recorded OpenAPI examples (data/openapi-examples.json, written by scripts/openapi-examples.ts), read once.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT_DIR } from '../config.js';
import { EXAMPLES_FILE, type ExampleSource } from '../contracts/openapi-examples.js';

type ExampleFile = { examples: Record<string, { status: number; body: unknown }> };
let loaded: ExampleFile['examples'] | null = null;

export const recordedExample: ExampleSource = (id) => {
  loaded ??= (JSON.parse(readFileSync(resolve(ROOT_DIR, EXAMPLES_FILE), 'utf8')) as ExampleFile).examples;
  return loaded[id] ?? null;
};
