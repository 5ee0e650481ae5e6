/**
 * The demo's photos: drawn by the service itself (an SVG of a room, or of a floor plan, made from
 * the photo's name, rendered to JPEG by sharp), so that the demo data set shows real variants on a
 * fresh clone with no network and no IMAGE_SOURCES. Their URLs name the service's default address
 * (http://127.0.0.1:8000/demo/photos/photo-3.jpg): the fetcher recognises them and draws them
 * instead of fetching anything, and GET /demo/photos/{file} serves them to a browser too.
 */
import { loadSharp } from './sharp-loader.js';

export const DEMO_PHOTO_ORIGIN = 'http://127.0.0.1:8000';
export const DEMO_PHOTO_PATH = '/demo/photos/';
/** Distinct demo photos and floor plans: few, so the demo's first start draws little. */
export const DEMO_PHOTO_COUNT = 12;
export const DEMO_PLAN_COUNT = 4;

const NAME = /^(photo|plan)-([1-9][0-9]?)$/;

export function demoPhotoUrl(name: string): string {
  return `${DEMO_PHOTO_ORIGIN}${DEMO_PHOTO_PATH}${name}.jpg`;
}

/** The demo photo a file name (`photo-3.jpg`) names, or undefined. */
export function demoPhotoOfFile(file: string): string | undefined {
  const name = file.endsWith('.jpg') ? file.slice(0, -4) : undefined;
  const match = name === undefined ? null : NAME.exec(name);
  if (!match) return undefined;
  const n = Number(match[2]);
  return n <= (match[1] === 'photo' ? DEMO_PHOTO_COUNT : DEMO_PLAN_COUNT) ? name : undefined;
}

/** The demo photo a source URL names, or undefined when it is not one. */
export function demoPhotoOfUrl(url: string): string | undefined {
  const prefix = DEMO_PHOTO_ORIGIN + DEMO_PHOTO_PATH;
  return url.startsWith(prefix) ? demoPhotoOfFile(url.slice(prefix.length)) : undefined;
}

/** A colour of a small palette of interiors, picked by number. */
const WALLS = ['#e8dccb', '#d9e2e8', '#efe6d2', '#dfe8dc', '#eadad6', '#e4e0ea'];
const ACCENTS = ['#8a6f52', '#4f6d7a', '#a0643c', '#5e7d5a', '#7a4f5e', '#56607a'];

function roomSvg(n: number): string {
  const wall = WALLS[n % WALLS.length]!;
  const accent = ACCENTS[(n * 5) % ACCENTS.length]!;
  const windowX = 160 + ((n * 97) % 520);
  const sofaX = 80 + ((n * 131) % 600);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="853">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${wall}"/><stop offset="1" stop-color="#b8b2a8"/></linearGradient>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc7ef"/><stop offset="1" stop-color="#eaf4fb"/></linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#a27b57"/><stop offset="1" stop-color="#6b4d33"/></linearGradient>
  </defs>
  <rect width="1280" height="853" fill="url(#wall)"/>
  <rect x="${windowX}" y="120" width="420" height="330" fill="url(#sky)" stroke="#ffffff" stroke-width="14"/>
  <line x1="${windowX + 210}" y1="120" x2="${windowX + 210}" y2="450" stroke="#ffffff" stroke-width="10"/>
  <polygon points="0,620 1280,620 1280,853 0,853" fill="url(#floor)"/>
  <rect x="${sofaX}" y="520" width="480" height="150" rx="30" fill="${accent}"/>
  <rect x="${sofaX + 30}" y="470" width="420" height="90" rx="24" fill="${accent}" opacity="0.85"/>
  <circle cx="${1100 - ((n * 53) % 300)}" cy="300" r="${60 + (n % 4) * 15}" fill="#f4d28a" opacity="0.8"/>
</svg>`;
}

function planSvg(n: number): string {
  const split = 400 + (n % 3) * 120;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
  <rect width="1200" height="900" fill="#ffffff"/>
  <g fill="none" stroke="#222222" stroke-width="12">
    <rect x="100" y="100" width="1000" height="700"/>
    <line x1="${split}" y1="100" x2="${split}" y2="560"/>
    <line x1="100" y1="560" x2="${split + 250}" y2="560"/>
    <line x1="${split + 250}" y1="560" x2="${split + 250}" y2="800"/>
  </g>
  <g fill="#e8eef5"><rect x="112" y="112" width="${split - 124}" height="436"/><rect x="${split + 12}" y="112" width="${1088 - split - 12}" height="436"/></g>
  <rect x="${split - 60}" y="554" width="90" height="12" fill="#ffffff"/>
</svg>`;
}

/** The JPEG of a demo photo (the same bytes every time). */
export async function renderDemoPhoto(name: string): Promise<Buffer> {
  const match = NAME.exec(name);
  if (!match) throw new Error(`not a demo photo: ${name}`);
  const n = Number(match[2]);
  const svg = match[1] === 'photo' ? roomSvg(n) : planSvg(n);
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
