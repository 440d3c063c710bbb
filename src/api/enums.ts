// The integer enumerations of API.md 2.4, their names, and the smartGenerateStatus rule of 2.2.

export const VideoModelStatus = {
  Created: 0,
  Uploaded: 1,
  Processing: 2,
  Transcoding: 3,
  Finished: 4,
  Error: 5,
  UploadFailed: 6,
  JitSegmenting: 7,
  JitPlaylistsCreated: 8,
} as const;

export const SmartGenerateStatus = { None: 0, Queued: 1, InProgress: 2, Finished: 3, Failed: 4 } as const;

export const Severity = { Undefined: 0, Information: 1, Warning: 2, Error: 3 } as const;

export const IssueCodes = {
  Undefined: 0,
  StreamLengthsDifference: 1,
  TranscodingWarnings: 2,
  IncompatibleResolution: 3,
  InvalidFramerate: 4,
  VideoExceededMaxDuration: 5,
  AudioExceededMaxDuration: 6,
  OriginalCorrupted: 7,
  TranscriptionFailed: 8,
  JitIncompatible: 9,
  JitFailed: 10,
  CaptionGenerationFailed: 11,
} as const;

export const VideoPlaybackSources = ['None', 'Playlist', 'Original'] as const;
export type VideoPlaybackSource = (typeof VideoPlaybackSources)[number];

/** Edge script types as shown in API.md 2.6 (the field that carries them is not shown). */
export const EdgeScriptType = { DNS: 0, CDN: 1, Middleware: 2 } as const;

export type EnumTable = Readonly<Record<string, number>>;

/** The name of an enumeration value, or `Unknown(<n>)` for a value the table does not hold. */
export function enumName(table: EnumTable, value: number): string {
  for (const [name, v] of Object.entries(table)) if (v === value) return name;
  return `Unknown(${value})`;
}

/** The largest integer of a table, for range checks. */
export function enumMax(table: EnumTable): number {
  return Math.max(...Object.values(table));
}

type SmartStatus = (typeof SmartGenerateStatus)[keyof typeof SmartGenerateStatus];

export interface SmartGenerateFeatures {
  title?: number | null;
  description?: number | null;
  chapters?: number | null;
  moments?: number | null;
}

/** Precedence of API.md 2.2: the first status any feature holds, in this order, is the aggregate. */
const PRECEDENCE: readonly SmartStatus[] = [
  SmartGenerateStatus.InProgress,
  SmartGenerateStatus.Queued,
  SmartGenerateStatus.Failed,
  SmartGenerateStatus.Finished,
];

/**
 * A video's `smartGenerateStatus`: derived from the per-feature statuses when present, with precedence
 * InProgress, Queued, Failed, Finished; otherwise (no features, or none of them in that list) the
 * stored legacy value.
 */
export function aggregateSmartGenerateStatus(
  features: SmartGenerateFeatures | null | undefined,
  legacy: number | null,
): number | null {
  if (features) {
    const present = [features.title, features.description, features.chapters, features.moments];
    for (const status of PRECEDENCE) if (present.includes(status)) return status;
  }
  return legacy;
}
