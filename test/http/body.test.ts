// readJsonBody's nesting bound, on the text before it is parsed: brackets inside strings (escaped quotes included)
// do not count, and a top-level object is level 1.
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/http/body.js';

describe('nestsDeeperThan(text, maxDepth)', () => {
  it('counts arrays and objects, a top-level container being level 1', () => {
    expect(nestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[[1]]}', 2)).toBe(true);
    expect(nestsDeeperThan('1', 0)).toBe(false);
    expect(nestsDeeperThan('[]', 0)).toBe(true);
  });

  it('counts the deepest branch, not the total of containers', () => {
    expect(nestsDeeperThan('[[1],[2],[3],[4],{}]', 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[\\\\"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('stops at the first level past the bound on input thousands deep', () => {
    expect(nestsDeeperThan('['.repeat(100_000), 32)).toBe(true);
  });
});
