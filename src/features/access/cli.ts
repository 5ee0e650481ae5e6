/**
 * The access commands: keys create / list / deactivate / activate (a new key is printed once;
 * listings never show a key or its hash), websites list, and websites scope (extension E7):
 * `websites scope --website ID` prints the scope; with --investment, --branch or --offer-type it
 * sets the scope to exactly the lists given (the lists not given no longer restrict); --clear
 * removes it (the website sees its whole organization again). An import keeps a scope set here
 * unless the website's record gives one.
 */
import { checkScopeArguments, createKey, findWebsite, listKeys, listWebsites, setKeyActive, type WebsiteSummary } from './write.js';
import { setWebsiteScope } from '../../import/publish.js';
import { type CliIo, CliUserError, withDatabase } from '../../cli/context.js';
import { json, keyJson, keysText, websitesText } from '../../cli/output.js';
import { describeWebsiteScope } from './scope.js';

export async function keysCreateCommand(
  io: CliIo,
  options: { website: string; label?: string; expiresAt?: string; json?: boolean },
): Promise<void> {
  await withDatabase(io, async (handle) => {
    const created = await createKey(handle.db, { websiteId: options.website, label: options.label, expiresAt: options.expiresAt });
    if (options.json) {
      io.stdout.write(json({ key_id: created.key_id, key: created.key, website_id: created.website_id }));
      return;
    }
    io.stdout.write(
      `Created key ${created.key_id} for website ${created.website_id}` +
        `${created.label ? ` (label "${created.label}")` : ''}${created.expires_at ? `, expires ${created.expires_at}` : ''}.\n` +
        `The key is shown only now; store it safely:\n\n  ${created.key}\n\n`,
    );
  });
}

export async function keysListCommand(io: CliIo, options: { website?: string; json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const keys = await listKeys(handle.db, { websiteId: options.website });
    io.stdout.write(options.json ? json(keys.map(keyJson)) : keysText(keys));
  });
}

export async function keysSetActiveCommand(io: CliIo, keyId: string, active: boolean, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const result = await setKeyActive(handle.db, keyId, active);
    if (options.json) {
      io.stdout.write(json({ key_id: result.key_id, website_id: result.website_id, is_active: result.is_active, changed: result.changed }));
      return;
    }
    const state = active ? 'active' : 'inactive';
    io.stdout.write(result.changed ? `Key ${result.key_id} is now ${state}.\n` : `Key ${result.key_id} was already ${state}.\n`);
  });
}

export async function websitesListCommand(io: CliIo, options: { organization?: string; json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    const websites = await listWebsites(handle.db, { organizationId: options.organization });
    io.stdout.write(options.json ? json(websites.map(websiteJson)) : websitesText(websites));
  });
}

export interface ScopeOptions {
  website: string;
  investment?: string[];
  branch?: string[];
  offerType?: string[];
  clear?: boolean;
  json?: boolean;
}

export function websiteJson(w: WebsiteSummary): Record<string, unknown> {
  return {
    website_id: w.website_id,
    organization_id: w.organization_id,
    name: w.name,
    scope: w.scope,
    active_keys: w.active_keys,
    keys: w.keys,
    updated_at: w.updated_at,
  };
}

export async function websitesScopeCommand(io: CliIo, options: ScopeOptions): Promise<void> {
  const lists = { investment_ids: options.investment, branch_ids: options.branch, offer_types: options.offerType };
  const setting = Object.values(lists).some((list) => list !== undefined);
  if (options.clear && setting) throw new CliUserError('give --clear or the lists of the scope (--investment, --branch, --offer-type), not both');
  const scope = setting ? checkScopeArguments(lists) : null;
  await withDatabase(io, async (handle) => {
    if (!setting && !options.clear) {
      const website = await findWebsite(handle.db, options.website);
      io.stdout.write(options.json ? json(websiteJson(website)) : `Website ${website.website_id} sees: ${describeWebsiteScope(website.scope)}.\n`);
      return;
    }
    const { website, changed } = await setWebsiteScope(handle.db, options.website, scope);
    if (options.json) {
      io.stdout.write(json({ ...websiteJson(website), changed }));
      return;
    }
    const sees = describeWebsiteScope(website.scope);
    io.stdout.write(changed ? `Website ${website.website_id} now sees: ${sees}.\n` : `Website ${website.website_id} already saw: ${sees}.\n`);
  });
}
