/**
 * transparency enable / disable / status: an operator turns an organization's public
 * price-transparency dataset (extension E10) on and off. `enable` is refused, listing what is
 * missing, while the organization's developer data lacks what the ministry's template requires.
 */
import { CliUserError, withDatabase, type CliIo } from '../../cli/context.js';
import { json, table } from '../../cli/output.js';
import { isUuidText } from './model.js';
import { datasetStatuses, disableDataset, enableDataset, type DatasetStatus } from './write.js';

function organizationId(value: string): string {
  if (!isUuidText(value)) throw new CliUserError(`--organization must be an organization id (a UUID), got "${value}"`);
  return value.toLowerCase();
}

function publicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliUserError(`--public-url must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliUserError(`--public-url must be an http(s) URL, got "${value}"`);
  if (url.search || url.hash) throw new CliUserError('--public-url must not have a query or a fragment');
  return value.replace(/\/+$/, '');
}

const paths = (s: DatasetStatus) =>
  s.public_url === null
    ? []
    : [`${s.public_url}/open-data/${s.organization_id}/dataset.xml`, `${s.public_url}/open-data/${s.organization_id}/prices.csv`];

export async function transparencyEnableCommand(io: CliIo, options: { organization: string; publicUrl: string; json?: boolean }): Promise<void> {
  const id = organizationId(options.organization);
  const url = publicUrl(options.publicUrl);
  await withDatabase(io, async (handle) => {
    const [status] = await datasetStatuses(handle.db, id);
    if (!status) throw new CliUserError(`no organization ${id}`);
    if (status.missing.length > 0) {
      throw new CliUserError(
        `the developer data of ${status.name} (${id}) lacks what the dataset needs: ${status.missing.join(', ')}; ` +
          'add it to the organization\'s "developer" in a bundle and import it',
      );
    }
    await enableDataset(handle.db, id, url);
    const [now] = await datasetStatuses(handle.db, id);
    if (options.json) {
      io.stdout.write(json({ ...now, urls: paths(now!) }));
      return;
    }
    io.stdout.write(
      `The price-transparency dataset of ${now!.name} is public. Give the harvester (dane.gov.pl) this URL:\n\n  ${paths(now!)[0]}\n\n` +
        `Today's file: ${paths(now!)[1]}\n`,
    );
  });
}

export async function transparencyDisableCommand(io: CliIo, options: { organization: string; json?: boolean }): Promise<void> {
  const id = organizationId(options.organization);
  await withDatabase(io, async (handle) => {
    const was = await disableDataset(handle.db, id);
    io.stdout.write(
      options.json
        ? json({ organization_id: id, enabled: false, was_enabled: was })
        : was
          ? `The price-transparency dataset of ${id} is off; its paths answer 404.\n`
          : `The price-transparency dataset of ${id} was not on.\n`,
    );
  });
}

export async function transparencyStatusCommand(io: CliIo, options: { organization?: string; json?: boolean }): Promise<void> {
  const id = options.organization === undefined ? undefined : organizationId(options.organization);
  await withDatabase(io, async (handle) => {
    const statuses = await datasetStatuses(handle.db, id);
    if (options.json) {
      io.stdout.write(json(statuses.map((s) => ({ ...s, urls: paths(s) }))));
      return;
    }
    if (statuses.length === 0) {
      io.stdout.write('No organizations.\n');
      return;
    }
    io.stdout.write(
      table(
        ['ORGANIZATION ID', 'NAME', 'DATASET', 'PUBLIC URL', 'MISSING'],
        statuses.map((s) => [s.organization_id, s.name, s.enabled ? 'on' : 'off', s.public_url ?? '-', s.missing.length === 0 ? '-' : s.missing.join(', ')]),
      ),
    );
  });
}
