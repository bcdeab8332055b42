// The return type of a store read that the embedded LMDB backend answers synchronously and the PostgreSQL backend with
// a promise (issue 18): callers always `await` it; LMDB-only code (its tests, the CLIs) keeps the synchronous value.
export type Awaitable<T> = T | Promise<T>;
