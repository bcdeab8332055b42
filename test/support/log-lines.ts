// The service's structured log captured in memory: pass `sink` as startService's `logDestination`, read the parsed
// pino lines from `lines`.
import { Writable } from 'node:stream';

export type LogLine = { level: number; msg: string; [field: string]: unknown };

export function captureLogLines(): { sink: Writable; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim() !== '') lines.push(JSON.parse(l) as LogLine);
      done();
    },
  });
  return { sink, lines };
}
