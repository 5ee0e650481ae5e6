/**
 * websites list / websites scope (extension E7). `websites scope --website ID` prints the scope;
 * with --investment, --branch or --offer-type it sets the scope to exactly the lists given (the
 * lists not given no longer restrict); --clear removes it (the website sees its whole
 * organization again). An import keeps a scope set here unless the website's record gives one.
 */
import { describeWebsiteScope } from '../../domain/website-scope.js';
import { checkScopeArguments, findWebsite, listWebsites, setWebsiteScope, type WebsiteSummary } from '../../writes/websites.js';
import { CliUserError, withDatabase, type CliIo } from '../context.js';
import { json, websitesText } from '../output.js';

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
