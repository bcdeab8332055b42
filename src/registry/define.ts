// The shape of a constants group: every hand-set number with its unit, reason and source, versioned per group.
// Changing any value in a group bumps that group's version in the same commit.

export type ConstantValue = number | string | boolean | readonly number[] | readonly string[];

export type ConstantEntry<V extends ConstantValue = ConstantValue> = {
  value: V;
  unit: string;
  reason: string;
  source: string;
};

export type ConstantGroup<E extends Record<string, ConstantEntry>> = {
  name: string;
  version: string;
  owner: string;
  entries: E;
  /** The bare values, for use in code: `GROUP.v.name`. */
  v: { [K in keyof E]: E[K]['value'] };
};

export function defineGroup<E extends Record<string, ConstantEntry>>(g: { name: string; version: string; owner: string; entries: E }): ConstantGroup<E> {
  const v = Object.fromEntries(Object.entries(g.entries).map(([k, e]) => [k, e.value])) as { [K in keyof E]: E[K]['value'] };
  return Object.freeze({ ...g, v: Object.freeze(v) });
}

/** Shorthand for one entry. */
export function c<const V extends ConstantValue>(value: V, unit: string, reason: string, source: string): ConstantEntry<V> {
  return { value, unit, reason, source };
}
