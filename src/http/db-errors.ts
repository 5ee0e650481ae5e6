/**
 * Which errors mean "the database is not there" (answered 503, not 500): refused or lost
 * connections, a pool that cannot hand out a connection in time, a server shutting down, and a
 * statement cancelled by statement_timeout.
 */

/** SQLSTATE classes and codes that say the server cannot serve us right now. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '53000', // insufficient_resources
  '08000', '08001', '08003', '08004', '08006', '08007', '08P01', // connection_exception class
]);

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i, // pg-pool
  /connection terminated/i, // pg
  /connection (?:was )?closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /driver has already been destroyed/i, // Kysely after destroy()
  /pglite is closed/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message, errors, cause } = e as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    // AggregateError (a refused connection to every address of a host name).
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = cause;
  }
  return false;
}
