// 4.1 Video play data, deterministic per (library, video) and valid against the strict schema. The rules
// of API.md 2.2: isPlayable = playlist or original playable; preferredPlaybackSource follows; the
// aggregate smartGenerateStatus is derived from the per-feature statuses.
import { createHash, timingSafeEqual } from 'node:crypto';
import { aggregateSmartGenerateStatus, SmartGenerateStatus, VideoModelStatus } from '../../api/enums.js';
import type { Video, VideoPlayData } from '../../api/schemas/video.js';
import { uuidOf } from '../json-text.js';
import { hashOf, Rng } from '../prng.js';
import { json, problem, statusOnly, type Reply } from '../replies.js';
import { weighted } from '../tables.js';
import type { HandlerContext } from './context.js';

const S = VideoModelStatus;
const STATUSES = weighted<number>([
  [S.Finished, 12],
  [S.Created, 1],
  [S.Uploaded, 1],
  [S.Processing, 1],
  [S.Transcoding, 2],
  [S.Error, 1],
  [S.UploadFailed, 1],
  [S.JitSegmenting, 1],
  [S.JitPlaylistsCreated, 2],
]);
const SMART = Object.values(SmartGenerateStatus);
const RESOLUTIONS = ['240p', '360p', '480p', '720p', '1080p'];
const SIZES: readonly (readonly [number, number])[] = [
  [1920, 1080],
  [1280, 720],
  [3840, 2160],
  [1080, 1920],
];

/** The token a token-authenticated library expects: sha256 hex of accessKey + videoId + expires. */
export function videoToken(accessKey: string, videoId: string, expires: number | string): string {
  return createHash('sha256').update(`${accessKey}${videoId}${expires}`).digest('hex');
}

function tokenValid(ctx: HandlerContext, videoId: string): boolean {
  const token = ctx.query.get('token') ?? '';
  const expires = ctx.query.get('expires') ?? '';
  if (!/^\d+$/.test(expires) || Number(expires) * 1000 <= ctx.now) return false;
  const expected = Buffer.from(videoToken(ctx.opts.accessKey, videoId, expires));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function video(
  rng: Rng,
  libraryId: number,
  guid: string,
  tokenAuth: boolean,
): { video: Video; playable: [boolean, boolean] } {
  const status = rng.pick(STATUSES);
  const uploaded = status !== S.Created && status !== S.UploadFailed;
  const hasOriginal = uploaded && rng.chance(0.9);
  const playlistPlayable = status === S.Finished || status === S.JitPlaylistsCreated;
  const originalPlayable = hasOriginal && status !== S.Error;
  const [width, height] = rng.pick(SIZES);
  const length = rng.int(5, 3600);
  const views = rng.int(0, 2_000_000);
  const averageWatchTime = Math.floor(length * rng.float());
  const uploadedAt = Date.UTC(2024, 0, 1) + rng.int(0, 900) * 86_400_000 + rng.int(0, 86_399_999);
  const legacy = rng.chance(0.5);
  const features = legacy
    ? null
    : {
        title: rng.chance(0.2) ? null : rng.pick(SMART),
        description: rng.chance(0.2) ? null : rng.pick(SMART),
        chapters: rng.chance(0.2) ? null : rng.pick(SMART),
        moments: rng.chance(0.2) ? null : rng.pick(SMART),
      };
  const legacyStatus = rng.chance(0.2) ? null : rng.pick(SMART);
  const encodeProgress = playlistPlayable
    ? 100
    : status === S.Transcoding || status === S.Processing
      ? rng.int(1, 99)
      : 0;
  const resolutions = playlistPlayable
    ? RESOLUTIONS.slice(0, rng.int(2, RESOLUTIONS.length)).join(',')
    : null;
  const cdn = `https://vz-${libraryId}.b-cdn.net/${encodeURIComponent(guid)}`;
  const v: Video = {
    videoLibraryId: libraryId,
    guid,
    title: `Simulated video ${guid}`,
    description: rng.chance(0.5) ? null : 'A video served by the edgelog API simulator.',
    dateUploaded: iso(uploadedAt),
    views,
    isPublic: !tokenAuth && rng.chance(0.7),
    length,
    status,
    framerate: rng.pick([24, 25, 29.97, 30, 60]),
    rotation: rng.chance(0.8) ? 0 : null,
    width,
    height,
    availableResolutions: resolutions,
    outputCodecs: rng.chance(0.8) ? 'x264' : 'x264,vp9',
    thumbnailCount: playlistPlayable ? rng.int(1, 60) : 0,
    encodeProgress,
    storageSize: uploaded ? rng.int(1_000_000, 4_000_000_000) : 0,
    captions: rng.chance(0.5) ? [] : [{ srclang: 'en', label: 'English', version: rng.int(1, 3) }],
    hasMP4Fallback: playlistPlayable && rng.chance(0.5),
    collectionId: rng.chance(0.6) ? null : uuidOf(rng.next(), rng.next(), rng.next(), rng.next()),
    thumbnailFileName: playlistPlayable ? 'thumbnail.jpg' : null,
    thumbnailUrl: playlistPlayable ? `${cdn}/thumbnail.jpg` : null,
    thumbnailBlurhash: playlistPlayable ? 'LEHV6nWB2yk8pyo0adR*.7kCMdnj' : null,
    averageWatchTime,
    totalWatchTime: averageWatchTime * views,
    category: rng.chance(0.5) ? null : rng.pick(['technology', 'education', 'music', 'sports']),
    chapters:
      length > 60
        ? [
            { title: 'Introduction', start: 0, end: 30 },
            { title: 'Main part', start: 30, end: length },
          ]
        : [],
    moments: length > 60 ? [{ label: 'Highlight', timestamp: Math.floor(length / 2) }] : [],
    metaTags: [{ property: 'description', value: 'Simulated' }],
    transcodingMessages:
      status === S.Error
        ? [
            {
              timeStamp: iso(uploadedAt + 60_000),
              level: 3,
              issueCode: 7,
              message: 'The original file is corrupted',
              value: null,
            },
          ]
        : playlistPlayable && rng.chance(0.2)
          ? [
              {
                timeStamp: iso(uploadedAt + 60_000),
                level: 2,
                issueCode: 1,
                message: 'Audio and video lengths differ',
                value: '0.4s',
              },
            ]
          : [],
    jitEncodingEnabled: status === S.JitSegmenting || status === S.JitPlaylistsCreated,
    smartGenerateStatus: aggregateSmartGenerateStatus(features, legacyStatus),
    smartGenerateFeaturesStatus: features,
    hasOriginal,
    originalHash: hasOriginal
      ? createHash('sha256').update(`${libraryId}/${guid}`).digest('hex').toUpperCase()
      : null,
    hasHighQualityPreview: playlistPlayable && rng.chance(0.5),
  };
  return { video: v, playable: [playlistPlayable, originalPlayable] };
}

export function videoPlayData(ctx: HandlerContext, libraryId: number, videoId: string): Reply {
  const tokenAuth = ctx.opts.tokenAuthLibraries.has(libraryId);
  if (tokenAuth && !tokenValid(ctx, videoId)) return statusOnly(401, ctx.echo);
  if (videoId.startsWith('missing'))
    return problem(404, `video ${videoId} was not found`, ctx.instance, ctx.echo);
  const rng = new Rng(hashOf(ctx.opts.seed, 'video', libraryId, videoId));
  const { video: v, playable } = video(rng, libraryId, videoId, tokenAuth);
  const [isPlaylistPlayable, originalPlayable] = playable;
  const cdn = `https://vz-${libraryId}.b-cdn.net/${encodeURIComponent(videoId)}`;
  const body: VideoPlayData = {
    video: v,
    libraryName: `Simulated library ${libraryId}`,
    pullZoneId: 100_000 + libraryId,
    captionsPath: `${cdn}/captions/`,
    seekPath: `${cdn}/seek/_{0}.jpg`,
    thumbnailUrl: v.thumbnailUrl ?? null,
    fallbackUrl: v.hasMP4Fallback ? `${cdn}/play_720p.mp4` : null,
    videoPlaylistUrl: `${cdn}/playlist.m3u8`,
    originalUrl: v.hasOriginal ? `${cdn}/original` : null,
    previewUrl: `${cdn}/preview.webp`,
    controls: 'play-large,play,progress,current-time,mute,volume,captions,settings,pip,airplay,fullscreen',
    enableDRM: false,
    drmVersion: 1,
    playerKeyColor: '#ff7755',
    vastTagUrl: null,
    viAiPublisherId: null,
    captionsFontSize: 20,
    captionsFontColor: '#fff',
    captionsBackground: '#000',
    uiLanguage: 'en',
    allowEarlyPlay: originalPlayable && !isPlaylistPlayable,
    tokenAuthEnabled: tokenAuth,
    enableMP4Fallback: v.hasMP4Fallback,
    showHeatmap: rng.chance(0.3),
    fontFamily: 'Rubik',
    playbackSpeeds: '0.5,0.75,1,1.25,1.5,1.75,2',
    widevineMinClientSecurityLevel: null,
    zoneTier: rng.int(0, 1),
    isPlayable: isPlaylistPlayable || originalPlayable,
    isPlaylistPlayable,
    preferredPlaybackSource: isPlaylistPlayable ? 'Playlist' : originalPlayable ? 'Original' : 'None',
    rememberPlayerPosition: rng.chance(0.5),
    customCss: null,
    exposeVideoMetadata: rng.chance(0.5),
    enableCompactControls: rng.chance(0.5),
  };
  return json(200, JSON.stringify(body));
}
