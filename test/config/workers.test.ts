// The worker pool scales with the machine: AVM_WORKERS defaults to the cores this process may use
// (os.availableParallelism, mocked here to a 6-core machine so the default is told apart from a constant), and an
// explicit value still wins.
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';

vi.mock('node:os', async (original) => ({ ...(await original<typeof import('node:os')>()), availableParallelism: () => 6 }));

describe('AVM_WORKERS', () => {
  it('defaults to the available parallelism', () => {
    expect(loadConfig({}).workers).toBe(6);
  });

  it('is overridden by the environment', () => {
    expect(loadConfig({ AVM_WORKERS: '3' }).workers).toBe(3);
    expect(() => loadConfig({ AVM_WORKERS: '0' })).toThrow(/AVM_WORKERS/);
  });
});
