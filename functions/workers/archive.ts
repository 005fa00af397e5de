import { archiveGroup } from "../archive.ts";
import { createEdgeObjectStore } from "../../lib/storage/s3-fetch.ts";
import { createEdgeScratch } from "../../lib/storage/scratch-object.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the complete archive: it reads and writes
// screenshots in the object store, and keeps an archive being imported there while it is read.
export default createWorker([archiveGroup], { storage: createEdgeObjectStore, scratch: createEdgeScratch });
