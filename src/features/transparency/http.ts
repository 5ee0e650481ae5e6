/**
 * The public, keyless paths of the price-transparency dataset (extension E10), for the state's
 * harvester and anyone else:
 *
 *   GET /open-data/{organization_id}/prices.csv             today's file (the day in Europe/Warsaw)
 *   GET /open-data/{organization_id}/prices/{YYYY-MM-DD}.csv a day's file, rebuilt from the history
 *   GET /open-data/{organization_id}/dataset.xml            the harvester XML, one resource per day
 *   GET /open-data/{organization_id}/dataset.xml.md5        the hex MD5 of that XML's bytes
 *
 * Only for an organization whose dataset an operator turned on; anything else (unknown or disabled
 * organization, a malformed id or file name, a day before the history's first or after today) is
 * 404 {"detail":"Not Found"}. The same day and the same data give the same bytes, with a strong
 * ETag (If-None-Match answers 304).
 */
import { createHash } from 'node:crypto';
import { publicOperation, sendDetail, type PublicContext } from '../../http/operation.js';
import { readContentVersion } from '../content-version/index.js';
import Type from 'typebox';
import type { BuiltFile } from './file-cache.js';
import { buildCsv, buildDatasetXml, daysBetween, endOfWarsawDay, isDay, isUuidText, normalizeDeveloper, warsawDay } from './model.js';
import { readDatasetOffers, readDatasetState, readFirstDay, type DatasetState } from './read.js';
import { DayFileParams, OrganizationFileParams } from './schemas.js';

const NOT_FOUND = 'Not Found';
const CSV_TYPE = 'text/csv; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

const notFound = {
  description: 'No such file: the organization is unknown or its dataset is off, or the day has no file.',
  content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: NOT_FOUND } } },
};
const fileResponses = (mediaType: string, description: string, example: string) => ({
  200: {
    description,
    headers: { ETag: { type: 'string', description: 'Strong: the same bytes, the same tag.' } },
    content: { [mediaType]: { schema: { type: 'string' }, example } },
  },
  304: { description: 'Not modified (If-None-Match matched the ETag).' },
  404: notFound,
});

/** Files this large are sent gzipped to a client that accepts it. */
const GZIP_MIN_BYTES = 1024;

/** Sends a built file (gzipped when the client accepts it) with its ETag, or 304 when the client holds it. */
function sendFile(ctx: PublicContext, file: BuiltFile, type: string): unknown {
  const { request, reply } = ctx;
  reply.header('vary', 'Accept-Encoding');
  const gzip = file.body.length >= GZIP_MIN_BYTES && /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
  const sent = gzip ? file.gzipped() : file;
  reply.header('etag', sent.etag).header('cache-control', 'public, no-cache');
  const held = request.headers['if-none-match'];
  if (held !== undefined && held.split(',').some((tag) => tag.trim() === sent.etag || tag.trim() === '*')) return reply.code(304).send();
  if (gzip) reply.header('content-encoding', 'gzip');
  reply.type(type);
  return sent.body;
}

/** The enabled dataset of a well-formed organization id, or undefined (404). */
async function dataset(ctx: PublicContext, organizationId: string): Promise<DatasetState | undefined> {
  if (!isUuidText(organizationId)) return undefined;
  return readDatasetState(ctx.db, organizationId.toLowerCase());
}

/** The file of one day (today's included), from the cache or built. */
async function dayFile(ctx: PublicContext, state: DatasetState, day: string): Promise<BuiltFile> {
  const version = await readContentVersion(ctx.db);
  return ctx.services.transparencyFiles.get(`csv|${state.organizationId}|${day}|${version}`, async () => {
    const offers = await readDatasetOffers(ctx.db, state.organizationId, endOfWarsawDay(day));
    return buildCsv(state.developer ?? normalizeDeveloper({}), offers);
  });
}

/** The XML of today (its resources end today), from the cache or built. */
async function xmlFile(ctx: PublicContext, state: DatasetState): Promise<BuiltFile | undefined> {
  const today = warsawDay(new Date());
  const version = await readContentVersion(ctx.db);
  const first = await readFirstDay(ctx.db, state.organizationId);
  return ctx.services.transparencyFiles.get(`xml|${state.organizationId}|${today}|${version}|${state.publicUrl}`, async () =>
    buildDatasetXml({
      organizationId: state.organizationId,
      developerName: state.developer?.legal_name ?? state.name,
      publicUrl: state.publicUrl,
      days: first === undefined || first > today ? [] : daysBetween(first, today),
    }),
  );
}

const CSV_EXAMPLE = 'Nazwa dewelopera;Forma prawna dewelopera;Nr KRS;...\r\nPrzykładowy Deweloper sp. z o.o.;spółka z ograniczoną odpowiedzialnością;0000123456;...\r\n';

export const todayPricesOperation = publicOperation({
  operationId: 'get_open_data_prices_today',
  summary: "Today's price-transparency file (CSV)",
  description:
    "The developer's prices as the ministry's template lists them, for today (the day in Europe/Warsaw): one row per active offer " +
    'with market_type PRIMARY, in an investment, whose offer_type sells a flat or a house. `;`-separated, UTF-8 without BOM, `X` for an ' +
    'empty value. Public (no key), only for an organization whose dataset an operator turned on.',
  tags: ['open data'],
  params: OrganizationFileParams,
  responses: fileResponses('text/csv', "Today's file", CSV_EXAMPLE),
  async handle({ params }, ctx) {
    const state = await dataset(ctx, params.organization_id);
    if (!state) return sendDetail(ctx.reply, 404, NOT_FOUND);
    return sendFile(ctx, await dayFile(ctx, state, warsawDay(new Date())), CSV_TYPE);
  },
});

export const dayPricesOperation = publicOperation({
  operationId: 'get_open_data_prices_of_day',
  summary: "One day's price-transparency file (CSV)",
  description:
    'The file as it stood at the end of that day (Europe/Warsaw), rebuilt from the price history: the offers then on offer, with their ' +
    'prices then. A day before the organization\'s first price, or after today, answers 404.',
  tags: ['open data'],
  params: DayFileParams,
  responses: fileResponses('text/csv', "The day's file", CSV_EXAMPLE),
  async handle({ params }, ctx) {
    const day = params.file.endsWith('.csv') ? params.file.slice(0, -4) : '';
    const state = isDay(day) ? await dataset(ctx, params.organization_id) : undefined;
    if (!state) return sendDetail(ctx.reply, 404, NOT_FOUND);
    const first = await readFirstDay(ctx.db, state.organizationId);
    if (first === undefined || day < first || day > warsawDay(new Date())) return sendDetail(ctx.reply, 404, NOT_FOUND);
    return sendFile(ctx, await dayFile(ctx, state, day), CSV_TYPE);
  },
});

const XML_EXAMPLE = '<?xml version="1.0" encoding="UTF-8"?>\n<ns2:datasets xmlns:ns2="urn:otwarte-dane:harvester:1.13"><dataset status="published">...</dataset></ns2:datasets>\n';

export const datasetXmlOperation = publicOperation({
  operationId: 'get_open_data_dataset_xml',
  summary: 'The harvester XML of the dataset',
  description:
    'The dataset described for the state\'s harvester (namespace `urn:otwarte-dane:harvester:1.13`): one dataset per organization with a ' +
    'stable `extIdent`, one resource per day from the first day of the price history to today, each the URL of that day\'s CSV under ' +
    'the public URL the operator gave. The same all day.',
  tags: ['open data'],
  params: OrganizationFileParams,
  responses: fileResponses('application/xml', 'The harvester XML', XML_EXAMPLE),
  async handle({ params }, ctx) {
    const state = await dataset(ctx, params.organization_id);
    if (!state) return sendDetail(ctx.reply, 404, NOT_FOUND);
    return sendFile(ctx, (await xmlFile(ctx, state))!, XML_TYPE);
  },
});

export const datasetMd5Operation = publicOperation({
  operationId: 'get_open_data_dataset_md5',
  summary: 'The MD5 of the harvester XML',
  description: 'The hex MD5 of the bytes `dataset.xml` answers now (32 lower-case hex digits, no line end).',
  tags: ['open data'],
  params: OrganizationFileParams,
  responses: fileResponses('text/plain', 'The MD5', '0cc175b9c0f1b6a831c399e269772661'),
  async handle({ params }, ctx) {
    const state = await dataset(ctx, params.organization_id);
    if (!state) return sendDetail(ctx.reply, 404, NOT_FOUND);
    const xml = (await xmlFile(ctx, state))!;
    const md5 = await ctx.services.transparencyFiles.get(`md5|${xml.etag}`, async () => createHash('md5').update(xml.body).digest('hex'));
    // (the MD5's own bytes get their own ETag)
    return sendFile(ctx, md5, TEXT_TYPE);
  },
});
