/**
 * The rules of photos at the size the page needs (extension E11), pure: the limits of a source,
 * the widths and formats a photo is offered in, the shape of a variant URL, and the answer of
 * GET /api/v1/offers/{offer_id}/photos built from an offer's URLs and their sources.
 */
import { createHash, hash } from 'node:crypto';

/** Largest source accepted, in bytes. */
export const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
/** Largest source accepted, in pixels (width × height as stored). */
export const MAX_SOURCE_PIXELS = 50_000_000;
/** How long one fetch may take, redirects and body included. */
export const FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed at most, each to an allowed origin. */
export const MAX_REDIRECTS = 3;

export interface SourceLimits {
  readonly maxBytes: number;
  readonly maxPixels: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
}

export const SOURCE_LIMITS: SourceLimits = Object.freeze({
  maxBytes: MAX_SOURCE_BYTES,
  maxPixels: MAX_SOURCE_PIXELS,
  timeoutMs: FETCH_TIMEOUT_MS,
  maxRedirects: MAX_REDIRECTS,
});

/** The widths every photo is offered in, when its source is at least that wide. */
export const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920] as const;
export const LARGEST_WIDTH = 1920;
/** The formats, best first (the order of a `<picture>` element's sources). */
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export const CONTENT_TYPES: Readonly<Record<VariantFormat, string>> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** The source formats rendered (never SVG: an SVG may name other addresses, and is no photo). */
export const SOURCE_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'avif', 'heif', 'gif', 'tiff']);

/** A placeholder is a data URI of at most this many characters. */
export const PLACEHOLDER_MAX_CHARS = 1024;

/** Cache-Control of a variant: its URL names its bytes, so they never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export type PhotoKind = 'photo' | 'floor_plan';
export type PhotoStatus = 'ready' | 'pending' | 'unavailable';

/**
 * The widths a source `width` pixels wide is offered in: the fixed widths up to its own (never
 * upscaled), and its own width when it is below the largest fixed width and not one of them.
 */
export function variantWidths(width: number): number[] {
  const widths: number[] = VARIANT_WIDTHS.filter((w) => w <= width);
  if (width < LARGEST_WIDTH && !widths.includes(width) && width >= 1) widths.push(width);
  return widths;
}

/** The height of a variant `width` wide of a photo displayed `source.width` × `source.height`. */
export function variantHeight(source: { width: number; height: number }, width: number): number {
  return Math.max(1, Math.round((source.height * width) / source.width));
}

/** The photo's name in its variant URLs: `photo-0`, `floor_plan-2`. */
export function photoName(kind: PhotoKind, index: number): string {
  return `${kind}-${index}`;
}

/** What a variant URL names; the signature covers all of it. */
export interface VariantAddress {
  readonly offerId: string;
  /** photoName(kind, index) */
  readonly photo: string;
  /** The source's content hash (hex SHA-256): a changed source gives new URLs. */
  readonly hash: string;
  readonly width: number;
  readonly format: VariantFormat;
}

/** The text that is signed: every part of the address, in URL order. */
export function signedText(address: VariantAddress): string {
  return `${address.offerId}/${address.photo}/${address.hash}/${address.width}.${address.format}`;
}

/** The path of a variant URL (without the signature's place filled: see variantPath). */
export function variantPath(address: VariantAddress, signature: string): string {
  return `/images/${address.offerId}/${address.photo}/${address.hash}/${signature}/${address.width}.${address.format}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PHOTO = /^(photo|floor_plan)-(0|[1-9][0-9]{0,3})$/;
const HASH = /^[0-9a-f]{64}$/;
const FILE = /^([1-9][0-9]{0,3})\.(avif|webp|jpeg)$/;

/** The address a variant URL's path parameters name, or undefined when they cannot be one the service issued. */
export function parseVariantAddress(params: { offer_id: string; photo: string; hash: string; file: string }): VariantAddress | undefined {
  const file = FILE.exec(params.file);
  if (!file || !UUID.test(params.offer_id) || !PHOTO.test(params.photo) || !HASH.test(params.hash)) return undefined;
  const width = Number(file[1]);
  if (width > LARGEST_WIDTH) return undefined;
  return { offerId: params.offer_id, photo: params.photo, hash: params.hash, width, format: file[2] as VariantFormat };
}

/** The source URLs of an offer's offer_data, photos first, then floor plans. */
export function photoUrlsOf(offerData: Record<string, unknown> | null | undefined): { kind: PhotoKind; index: number; url: string }[] {
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  return [
    ...list(offerData?.photos_urls).map((url, index) => ({ kind: 'photo' as const, index, url })),
    ...list(offerData?.floor_plan_urls).map((url, index) => ({ kind: 'floor_plan' as const, index, url })),
  ];
}

/** Why a URL is not fetched at all, or undefined when its origin is allowed. */
export function refusedOrigin(url: string, allowed: readonly string[]): string | undefined {
  if (allowed.length === 0) return 'IMAGE_SOURCES is not set: no photo is fetched';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (!/^https?:$/.test(parsed.protocol)) return 'only http and https sources are fetched';
  if (parsed.username || parsed.password) return 'a URL with credentials is not fetched';
  if (!allowed.includes(parsed.origin)) return `origin ${parsed.origin} is not in IMAGE_SOURCES`;
  return undefined;
}

/** What the service knows of one source (photo_sources), as the answer needs it. */
export interface SourceState {
  readonly status: PhotoStatus;
  readonly reason: string | null;
  readonly contentHash: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly placeholder: string | null;
}

export interface PhotoVariant {
  width: number;
  height: number;
  format: VariantFormat;
  url: string;
}

export interface PhotoView {
  kind: PhotoKind;
  index: number;
  source_url: string;
  status: PhotoStatus;
  reason: string | null;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  variants: PhotoVariant[];
}

/**
 * One photo of the answer. A source that is not allowed is `unavailable` whatever was stored (so
 * emptying IMAGE_SOURCES takes effect at once); one not yet known is `pending`.
 */
export function photoView(
  offerId: string,
  photo: { kind: PhotoKind; index: number; url: string },
  state: SourceState | undefined,
  allowed: readonly string[],
  variantUrl: (address: VariantAddress) => string,
  /** The demo's own photos: drawn by the service, never fetched, whatever `allowed` says. */
  builtIn: (url: string) => boolean = () => false,
): PhotoView {
  const base = { kind: photo.kind, index: photo.index, source_url: photo.url };
  const empty = { width: null, height: null, placeholder: null, variants: [] };
  const refused = builtIn(photo.url) ? undefined : refusedOrigin(photo.url, allowed);
  if (refused) return { ...base, status: 'unavailable', reason: refused, ...empty };
  if (!state || state.status === 'pending') return { ...base, status: 'pending', reason: null, ...empty };
  if (state.status === 'unavailable' || state.contentHash === null || state.width === null || state.height === null) {
    return { ...base, status: 'unavailable', reason: state.reason ?? 'the source could not be used', ...empty };
  }
  const size = { width: state.width, height: state.height };
  const variants = variantWidths(size.width).flatMap((width) =>
    VARIANT_FORMATS.map((format) => ({
      width,
      height: variantHeight(size, width),
      format,
      url: variantUrl({ offerId, photo: photoName(photo.kind, photo.index), hash: state.contentHash!, width, format }),
    })),
  );
  return { ...base, status: 'ready', reason: null, width: size.width, height: size.height, placeholder: state.placeholder, variants };
}

/** The key of a source URL in photo_sources: the hex SHA-256 of the URL (as the migration computes it). */
export function sourceIdOf(url: string): string {
  // The one-shot hash: an import computes one per photo URL of its unchanged offers when some
  // source is unavailable (about 200,000 for 20,000 offers); the fetcher's expansion of noted
  // offers computes the same in SQL (write.ts).
  return hash('sha256', url, 'hex');
}

/** The content hash of a source's bytes: its file name in the cache and part of its variant URLs. */
export function contentHashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
