/**
 * What is done to images, with sharp (libvips: it streams through an image in small regions, so
 * a render holds a bounded amount of memory, and it is several times faster than the
 * alternatives). Inspecting a fetched source: is it an image of an accepted format, within the
 * pixel limit (read from its header, before anything is decoded: a small file declaring huge
 * dimensions is refused without decoding it), its size as displayed (EXIF orientation applied),
 * and its placeholder. Rendering a variant: orientation applied, resized, converted to sRGB, and
 * written without any metadata (sharp keeps none unless asked: no EXIF, no GPS position, no ICC
 * profile once the colours are sRGB).
 */
import type { Metadata } from 'sharp';
import { PLACEHOLDER_MAX_CHARS, SOURCE_FORMATS, type VariantFormat } from './model.js';
import { loadSharp } from './sharp-loader.js';

export type Inspection =
  | { ok: true; width: number; height: number; placeholder: string; format: string }
  | { ok: false; reason: string };

/** A placeholder: a data URI of a tiny WebP at most PLACEHOLDER_MAX_CHARS long (16 px on its long side, smaller if needed). */
async function placeholderOf(bytes: Buffer, maxPixels: number): Promise<string> {
  const sharp = await loadSharp();
  for (const side of [16, 12, 8, 4]) {
    const tiny = await sharp(bytes, { limitInputPixels: maxPixels })
      .autoOrient()
      .resize(side, side, { fit: 'inside' })
      .toColourspace('srgb')
      .webp({ quality: 40 })
      .toBuffer();
    const uri = `data:image/webp;base64,${tiny.toString('base64')}`;
    if (uri.length <= PLACEHOLDER_MAX_CHARS) return uri;
  }
  return '';
}

/** Checks a fetched source and measures it; every failure is a reason, never an exception. */
export async function inspectSource(bytes: Buffer, maxPixels: number): Promise<Inspection> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: 'not an image' };
  }
  if (!meta.format || !SOURCE_FORMATS.has(meta.format) || !meta.width || !meta.height) {
    return { ok: false, reason: `not an image of an accepted format (${meta.format ?? 'unknown'})` };
  }
  const pixels = meta.width * (meta.pageHeight ?? meta.height);
  if (pixels > maxPixels) return { ok: false, reason: `more than ${maxPixels} pixels (${meta.width} × ${meta.height})` };
  const displayed = meta.autoOrient ?? { width: meta.width, height: meta.height };
  try {
    const placeholder = await placeholderOf(bytes, maxPixels);
    return { ok: true, width: displayed.width, height: displayed.height, placeholder, format: meta.format };
  } catch (error) {
    return { ok: false, reason: `the image could not be decoded: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
  }
}

/** Renders one variant of the source file at `sourcePath`, exactly `width` × `height`. */
export async function renderVariant(sourcePath: string, width: number, height: number, format: VariantFormat, maxPixels: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const pipeline = sharp(sourcePath, { limitInputPixels: maxPixels, sequentialRead: true })
    .autoOrient()
    // The height was computed from the displayed size (model.variantHeight): `fill` makes it exact.
    .resize(width, height, { fit: 'fill' })
    .toColourspace('srgb');
  if (format === 'avif') return pipeline.avif({ quality: 50, effort: 2 }).toBuffer();
  if (format === 'webp') return pipeline.webp({ quality: 75 }).toBuffer();
  return pipeline.jpeg({ quality: 80, progressive: true }).toBuffer();
}
