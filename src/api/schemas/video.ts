// Video play data (API.md 2.1–2.4): validated strictly, as the video API publishes a closed schema.
import { z } from 'zod';
import {
  IssueCodes,
  Severity,
  SmartGenerateStatus,
  VideoModelStatus,
  VideoPlaybackSources,
} from '../enums.js';
import { dateTime, enumInt, int32, int64 } from './scalars.js';

const nstring = z.string().nullable();
const smartStatus = enumInt('SmartGenerateStatus', SmartGenerateStatus);

const caption = z.strictObject({ srclang: nstring.optional(), label: nstring.optional(), version: int32 });
const chapter = z.strictObject({ title: z.string().min(1), start: int32, end: int32 });
const moment = z.strictObject({ label: z.string().min(1), timestamp: int32 });
const metaTag = z.strictObject({ property: nstring.optional(), value: nstring.optional() });
const transcodingMessage = z.strictObject({
  timeStamp: dateTime,
  level: enumInt('Severity', Severity),
  issueCode: enumInt('IssueCodes', IssueCodes),
  message: nstring.optional(),
  value: nstring.optional(),
});
const featuresStatus = z.strictObject({
  title: smartStatus.nullable().optional(),
  description: smartStatus.nullable().optional(),
  chapters: smartStatus.nullable().optional(),
  moments: smartStatus.nullable().optional(),
});

export const videoSchema = z.strictObject({
  videoLibraryId: int64,
  guid: z.string().min(1),
  title: z.string().min(1),
  description: nstring.optional(),
  dateUploaded: dateTime,
  views: int64,
  isPublic: z.boolean(),
  length: int32,
  status: enumInt('VideoModelStatus', VideoModelStatus),
  framerate: z.number(),
  rotation: int32.nullable().optional(),
  width: int32,
  height: int32,
  availableResolutions: nstring.optional(),
  outputCodecs: z.string().min(1),
  thumbnailCount: int32,
  encodeProgress: int32,
  storageSize: int64,
  captions: z.array(caption).nullable().optional(),
  hasMP4Fallback: z.boolean(),
  collectionId: nstring.optional(),
  thumbnailFileName: nstring.optional(),
  thumbnailUrl: nstring.optional(),
  thumbnailBlurhash: nstring.optional(),
  averageWatchTime: int64,
  totalWatchTime: int64,
  category: nstring.optional(),
  chapters: z.array(chapter).nullable().optional(),
  moments: z.array(moment).nullable().optional(),
  metaTags: z.array(metaTag).nullable().optional(),
  transcodingMessages: z.array(transcodingMessage).nullable().optional(),
  jitEncodingEnabled: z.boolean().nullable().optional(),
  smartGenerateStatus: smartStatus.nullable().optional(),
  smartGenerateFeaturesStatus: featuresStatus.nullable().optional(),
  hasOriginal: z.boolean().nullable().optional(),
  originalHash: nstring.optional(),
  hasHighQualityPreview: z.boolean().nullable().optional(),
});

// In 2.1 no field is marked required; non-nullable ones may still be omitted, nullable ones may be null.
export const videoPlayDataSchema = z.strictObject({
  video: videoSchema.nullable().optional(),
  libraryName: nstring.optional(),
  pullZoneId: int64.optional(),
  captionsPath: nstring.optional(),
  seekPath: nstring.optional(),
  thumbnailUrl: nstring.optional(),
  fallbackUrl: nstring.optional(),
  videoPlaylistUrl: nstring.optional(),
  originalUrl: nstring.optional(),
  previewUrl: nstring.optional(),
  controls: nstring.optional(),
  enableDRM: z.boolean().optional(),
  drmVersion: int32.optional(),
  playerKeyColor: nstring.optional(),
  vastTagUrl: nstring.optional(),
  viAiPublisherId: nstring.optional(),
  captionsFontSize: int32.optional(),
  captionsFontColor: nstring.optional(),
  captionsBackground: nstring.optional(),
  uiLanguage: nstring.optional(),
  allowEarlyPlay: z.boolean().optional(),
  tokenAuthEnabled: z.boolean().optional(),
  enableMP4Fallback: z.boolean().optional(),
  showHeatmap: z.boolean().optional(),
  fontFamily: nstring.optional(),
  playbackSpeeds: nstring.optional(),
  widevineMinClientSecurityLevel: int32.nullable().optional(),
  zoneTier: int32.nullable().optional(),
  isPlayable: z.boolean().optional(),
  isPlaylistPlayable: z.boolean().optional(),
  preferredPlaybackSource: z.enum(VideoPlaybackSources).optional(),
  rememberPlayerPosition: z.boolean().optional(),
  customCss: nstring.optional(),
  exposeVideoMetadata: z.boolean().optional(),
  enableCompactControls: z.boolean().optional(),
});

export type Video = z.infer<typeof videoSchema>;
export type VideoPlayData = z.infer<typeof videoPlayDataSchema>;
