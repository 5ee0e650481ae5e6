/**
 * Timestamp forms of the contract. The database hands timestamptz back as UTC text
 * ("2025-01-31 09:15:00.123456+00"); these turn that text into the forms clients expect.
 */

const DB_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(?:Z|[+-]00(?::?00)?)$/;

function parts(raw: string): { date: string; time: string; micros: string } {
  const m = DB_TIMESTAMP.exec(raw);
  if (!m) throw new Error(`unexpected timestamp from the database: ${raw}`);
  const fraction = m[3] ?? '';
  // Python's isoformat shows microseconds only when there are some; so do we.
  const micros = /^0*$/.test(fraction) ? '' : `.${fraction.padEnd(6, '0')}`;
  return { date: m[1]!, time: m[2]!, micros };
}

/** created_at / updated_at in JSON: 2025-01-31T09:15:00.123456Z */
export function toApiTimestamp(raw: string): string {
  const { date, time, micros } = parts(raw);
  return `${date}T${time}${micros}Z`;
}

/** created_at / updated_at in XML: 2025-01-31 09:15:00.123456+00:00 */
export function toXmlTimestamp(raw: string): string {
  const { date, time, micros } = parts(raw);
  return `${date} ${time}${micros}+00:00`;
}

/** RFC 3339 date-time with an explicit offset or Z (what import and filters accept). */
export const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 date-time into epoch microseconds, or undefined when it is not one (or names
 * a day that does not exist).
 */
export function parseRfc3339(value: string): { epochMs: number; micros: number } | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(base);
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  ) {
    return undefined;
  }
  let offsetMin = 0;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMin = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const micros = Number((frac ?? '.0').slice(1).padEnd(6, '0').slice(0, 6));
  const epochMs = base - offsetMin * 60_000 + Math.floor(micros / 1000);
  return { epochMs, micros };
}

/** available_from_date form: UTC, milliseconds, trailing Z. */
export function toMillisZ(value: string): string | undefined {
  const parsed = parseRfc3339(value);
  return parsed ? new Date(parsed.epochMs).toISOString() : undefined;
}

/** date_modified / date_posted form: UTC with +00:00, microseconds when present. */
export function toOffsetForm(value: string): string | undefined {
  const parsed = parseRfc3339(value);
  if (!parsed) return undefined;
  const iso = new Date(parsed.epochMs).toISOString(); // 2025-01-31T09:15:00.123Z
  const micros = parsed.micros === 0 ? '' : `.${String(parsed.micros).padStart(6, '0')}`;
  return `${iso.slice(0, 19)}${micros}+00:00`;
}

/** Offer created_at / updated_at as given on import, normalized to what PostgreSQL stores. */
export function toStoredTimestamp(value: string): string | undefined {
  const parsed = parseRfc3339(value);
  if (!parsed) return undefined;
  const iso = new Date(parsed.epochMs).toISOString();
  return `${iso.slice(0, 19)}.${String(parsed.micros).padStart(6, '0')}Z`;
}
