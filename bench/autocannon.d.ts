// The part of autocannon's API the load benchmark uses (the package ships no type declarations).
declare module 'autocannon' {
  type Histogram = { p50: number; p90: number; p99: number; max: number; mean: number; average: number };
  export type Result = { latency: Histogram; requests: Histogram & { total: number }; errors: number; timeouts: number; non2xx: number; duration: number; '2xx': number };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    headers?: Record<string, string>;
    requests?: Array<{ method?: string; path: string }>;
  };
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
