/**
 * Which content coding to send for an Accept-Encoding header (RFC 9110 12.5.3): br or gzip by
 * their q-values (br on a tie: it is smaller), `*` standing for any coding the header does not
 * name, `x-gzip` for gzip. Undefined means identity: no header, nothing acceptable, or q=0 for both.
 */
import type { Encoding } from './response-cache.js';

export function preferredEncoding(header: string | string[] | undefined): Encoding | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  let br: number | undefined;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const member of value.split(',')) {
    const [rawName = '', ...params] = member.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key = '', raw = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const parsed = Number(raw.trim());
      q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 0;
    }
    if (name === 'br') br = Math.max(br ?? 0, q);
    else if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === '*') any = Math.max(any ?? 0, q);
  }
  const brQ = br ?? any ?? 0;
  const gzipQ = gzip ?? any ?? 0;
  if (brQ > 0 && brQ >= gzipQ) return 'br';
  if (gzipQ > 0) return 'gzip';
  return undefined;
}
