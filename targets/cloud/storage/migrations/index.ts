// Every migration, in order. A landed migration is never edited: a change to the schema is a new
// file appended here, so a data folder of any age reaches the newest schema at start-up.
import type { Migration } from "kysely";
import * as core from "./0001-core.js";
import * as fragments from "./0002-fragments.js";
import * as people from "./0005-people.js";
import * as logs from "./0003-logs.js";
import * as device from "./0004-device.js";
import * as releases from "./0006-releases.js";
import * as logChunks from "./0007-log-chunks.js";
import * as webSessions from "./0008-web-sessions.js";
import * as partConfigStatus from "./0010-part-config-status.js";
import * as provisioningKeys from "./0011-provisioning-keys.js";
import * as logPartitions from "./0012-log-partitions.js";
import * as signInFailures from "./0013-sign-in-failures.js";
import * as fileBlobs from "./0014-file-blobs.js";
import * as signalingAnswerers from "./0015-signaling-answerers.js";
import * as keptTablesNotify from "./0016-kept-tables-notify.js";

export const migrations: Record<string, Migration> = {
  "0001-core": core,
  "0002-fragments": fragments,
  "0005-people": people,
  "0003-logs": logs,
  "0004-device": device,
  "0006-releases": releases,
  "0007-log-chunks": logChunks,
  "0008-web-sessions": webSessions,
  "0010-part-config-status": partConfigStatus,
  "0011-provisioning-keys": provisioningKeys,
  "0012-log-partitions": logPartitions,
  "0013-sign-in-failures": signInFailures,
  "0014-file-blobs": fileBlobs,
  "0015-signaling-answerers": signalingAnswerers,
  "0016-kept-tables-notify": keptTablesNotify,
};
