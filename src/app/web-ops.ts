// The open web map's operations: its page (GET /) and its geometry layers as GeoJSON. Each layer is serialized once
// per source (the tract layer once per sales snapshot; the outlines once per process: they are committed files) and
// sent with a strong ETag of its bytes, so a reload revalidates with a 304 instead of moving megabytes again.
import { JsonText, Reply } from '../contracts/reply.js';
import { tractShapes } from '../pulse/tract-shapes.js';
import { loadNeighborhoods, loadTownships } from '../reference/load.js';
import type { ServiceContext } from './context.js';
import { strongEtag } from './etag.js';
import { MAP_PAGE_HEADERS, mapPage } from './map-page.js';

type Serialized = { text: JsonText; etag: string };

function serialize(value: unknown): Serialized {
  const text = JSON.stringify(value);
  return { text: new JsonText(text), etag: strongEtag(text) };
}

/** Revalidate on every use (no-cache): the tract signals change with each ingested snapshot, the outlines with a deploy. */
const geoReply = (s: Serialized): Reply => new Reply(s.text, 200, { ETag: s.etag, 'Cache-Control': 'no-cache' });

export function webOperations(svc: ServiceContext) {
  let tracts: { snapshotId: string | null; value: Serialized } | null = null;
  let neighborhoods: Serialized | null = null;
  let townships: Serialized | null = null;
  return {
    map_page: async () => new Reply(mapPage(), 200, MAP_PAGE_HEADERS),
    tract_shapes: async () => {
      const snapshotId = svc.store.currentSnapshotId();
      if (!tracts || tracts.snapshotId !== snapshotId) tracts = { snapshotId, value: serialize(tractShapes(svc.store)) };
      return geoReply(tracts.value);
    },
    neighborhood_shapes: async () => geoReply((neighborhoods ??= serialize(loadNeighborhoods()))),
    township_shapes: async () => geoReply((townships ??= serialize(loadTownships()))),
  };
}
