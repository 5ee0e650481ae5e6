/**
 * sharp (libvips, a native library: about 18 MB resident and 50 ms to load) is loaded on the first
 * image operation, not with the module: the command line's import and most of its other commands
 * never touch an image.
 */
import type SharpModule from 'sharp';

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | undefined;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep decoded images between renders: memory stays bounded
    // without it, and every render is of a different image anyway.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
