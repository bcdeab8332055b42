// Hand-set numbers of the PostgreSQL shared backend's state part (issue 18): how replicas fan the event stream out to
// their SSE clients (LISTEN/NOTIFY, with a catch-up read so a missed notification only delays a record).
import { c, defineGroup } from '../define.js';

const ENG = 'engineering: replicas on one PostgreSQL database (issue 18)';

export const SHARED_STATE = defineGroup({
  name: 'shared-state',
  version: '1.0.0',
  owner: 'store',
  entries: {
    events_fanout_batch: c(1_000, 'records', 'records read per catch-up query when a replica fans new stream records out to its SSE clients; as many as a reconnecting client replays (auth sse_replay_max), so one read covers any burst a client could have missed', ENG),
    events_listen_retry_ms: c(1_000, 'ms', 'wait before a replica reconnects its LISTEN connection after losing it (PostgreSQL restarted, network cut); on reconnect it reads everything it missed', ENG),
    unavailable_retry_after_s: c(1, 's', 'Retry-After on a 503 shared_store_unavailable: a load balancer may send the retry to a replica whose connection still works, and a restarted database accepts connections within seconds', ENG),
    events_catchup_poll_ms: c(5_000, 'ms', 'a replica also reads new stream records this often without a notification: a notification lost while the LISTEN connection was down delays a record by at most this', ENG),
  },
});
