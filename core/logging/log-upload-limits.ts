// What one upload of log entries to the cloud (RobotService.Log) may hold: svc-cloud refuses more,
// and a machine's uploader keeps each entry and batch within it, so no entry is ever the reason a
// batch is refused.

/** Entries one Log call may carry. */
export const MAX_LOG_BATCH = 1000;

/** Bytes a field of one entry may hold (encoded; `fields` all its Structs together). */
export const LOG_FIELD_LIMITS = { host: 256, logger_name: 256, message: 64 * 1024, stack: 64 * 1024, caller: 4 * 1024, fields: 64 * 1024 } as const;

/** Values (google.protobuf.Value) one entry's caller and fields may hold together. */
export const MAX_ENTRY_VALUES = 1024;

/** How deep Structs and lists may nest in an entry. */
export const MAX_STRUCT_DEPTH = 32;
