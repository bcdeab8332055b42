// The map's live stream: one EventSource on /api/events. The browser resumes by itself after a dropped connection
// (it sends Last-Event-ID, which the service prefers); a manual reconnect (after the browser gave up, state CLOSED)
// passes the last id seen as ?after=, so nothing between the two connections is lost. Records arrive as unnamed
// messages with the record kind inside `data` (src/http/events-stream.ts); a `replay_truncated` event means the gap
// was larger than the replay window, so the owner's state is reloaded instead of trusted.
export type StreamRecord = { id: number; kind: string; at: string; payload: unknown };

export type LiveOptions = {
  /** `history`: the record was already in the log when this page first connected (the first replay, before `replayed`). */
  onRecord: (rec: StreamRecord, history: boolean) => void;
  onTruncated?: () => void;
  onStatus?: (status: 'open' | 'reconnecting' | 'closed') => void;
  /** How long to wait before a manual reconnect once the browser has given up (ms). */
  retryMs?: number;
};

export type LiveStream = { lastId(): number; close(): void };

export function openLiveStream(opts: LiveOptions): LiveStream {
  let lastId = 0;
  let caughtUp = false; // the first connection's replay has ended: later replays (resumes) are records this page missed
  let source: EventSource | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = (): void => {
    source = new EventSource(lastId > 0 ? `/api/events?after=${lastId}` : '/api/events');
    source.onopen = () => opts.onStatus?.('open');
    source.onmessage = (ev: MessageEvent<string>) => {
      let rec: StreamRecord;
      try {
        rec = JSON.parse(ev.data) as StreamRecord;
      } catch {
        return; // not a record (the stream sends only records as messages)
      }
      if (typeof rec.id === 'number' && rec.id <= lastId) return; // already applied (a replay after a resume)
      if (typeof rec.id === 'number') lastId = rec.id;
      opts.onRecord(rec, !caughtUp);
    };
    source.addEventListener('replayed', () => {
      caughtUp = true;
    });
    source.addEventListener('replay_truncated', () => opts.onTruncated?.());
    source.onerror = () => {
      if (closed || !source) return;
      if (source.readyState === EventSource.CONNECTING) return opts.onStatus?.('reconnecting'); // the browser resumes
      opts.onStatus?.('closed');
      source.close();
      timer = setTimeout(connect, opts.retryMs ?? 3000);
    };
  };
  connect();
  return {
    lastId: () => lastId,
    close: () => {
      closed = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
