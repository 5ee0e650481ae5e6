/**
 * The SEO wing's command: `websites urls --website ID` prints the website's URL templates; with
 * --offer and/or --investment it sets those (the other stays); --clear removes both. The sitemap
 * (GET /api/v1/sitemap.xml) makes its addresses from them. An import keeps them unless the
 * website's record gives `urls`.
 */
import { type CliIo, CliUserError, withDatabase } from '../../cli/context.js';
import { json } from '../../cli/output.js';
import { setWebsiteUrls } from './write.js';
import type { WebsiteUrls } from './model.js';

export interface UrlsOptions {
  website: string;
  offer?: string;
  investment?: string;
  clear?: boolean;
  json?: boolean;
}

function describeUrls(urls: WebsiteUrls | null): string {
  if (urls === null) return 'no URL templates (GET /api/v1/sitemap.xml answers 409)';
  return [`offers: ${urls.offer ?? '(none)'}`, `investments: ${urls.investment ?? '(none)'}`].join('\n  ');
}

export async function websitesUrlsCommand(io: CliIo, options: UrlsOptions): Promise<void> {
  const setting = options.offer !== undefined || options.investment !== undefined;
  if (options.clear && setting) throw new CliUserError('give --clear or the templates (--offer, --investment), not both');
  const set: WebsiteUrls | null = options.clear
    ? null
    : { ...(options.offer !== undefined ? { offer: options.offer } : {}), ...(options.investment !== undefined ? { investment: options.investment } : {}) };
  await withDatabase(io, async (handle) => {
    // Nothing to set: the same call changes nothing and tells the templates.
    const { urls, changed } = await setWebsiteUrls(handle.db, options.website, setting || options.clear ? set : {});
    const websiteId = options.website.toLowerCase();
    if (options.json) {
      io.stdout.write(json({ website_id: websiteId, urls, changed }));
      return;
    }
    const verb = !setting && !options.clear ? 'has' : changed ? 'now has' : 'already had';
    io.stdout.write(`Website ${websiteId} ${verb} ${urls === null ? describeUrls(null) : `these URL templates:\n  ${describeUrls(urls)}`}\n`);
  });
}
