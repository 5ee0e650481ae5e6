/**
 * The command line, callable in-process: runCli(argv, io) parses, runs one command and returns the
 * exit status. 0 success; 1 a mistake to fix (bad file, unknown id, invalid bundle, database not
 * reachable, another import running) or a fault; 2 wrong usage. A failure is one line on stderr,
 * never a stack trace; with --json stdout holds one JSON document (the result, or {"error": ...}).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ImportRejectedError } from '../import/import-errors.js';
import { describeError, type CliIo } from './context.js';
import { json } from './output.js';

export type { CliIo } from './context.js';

const JSON_HELP = 'print one JSON document on stdout and nothing else';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An option value that must be a whole number within [min, max]. */
const wholeNumber = (min: number, max: number) => (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
  return n;
};

const uuidOption = (value: string): string => {
  if (!UUID.test(value)) throw new InvalidArgumentError('expected a UUID');
  return value.toLowerCase();
};

/**
 * The commands. Each action imports its command's module when it runs, so a command loads only
 * the code it uses: an import does not load the mirror's, the webhooks' or the transparency
 * files' modules (the process started with about 14 MB more resident memory when it did).
 */
function buildProgram(io: CliIo, seen: { json: boolean }): Command {
  const program = new Command('estate-content')
    .description(
      'Estate Content Service command line. Uses DATABASE_URL (PostgreSQL) or, without it, the embedded database in DATA_DIR (default ./data).',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  // Remember --json before the action runs, so that a failure can answer in JSON too.
  program.hook('preAction', (_program, action) => {
    seen.json = Boolean(action.opts().json);
    // "keys list", "import bundle.ndjson": what the embedded database's lock says this process is doing.
    const names: string[] = [];
    for (let c: Command | null = action; c && c !== program; c = c.parent) names.unshift(c.name());
    io.command = [...names, ...action.args].join(' ');
  });

  program
    .command('import')
    .description('import a content bundle (JSON or NDJSON), all or nothing')
    .argument('<file>', 'bundle file (.json, .ndjson or .jsonl)')
    .option('--prune', 'make active offers of the bundle\'s organizations that the bundle does not contain inactive')
    .addOption(new Option('--format <format>', 'file format').choices(['auto', 'json', 'ndjson']).default('auto'))
    .option('--json', JSON_HELP)
    .action(async (file: string, options) => (await import('./commands/import.js')).importCommand(io, file, options));

  program
    .command('mirror')
    .description('copy everything a key sees on a running service of the original interface, all or nothing, keeping ids and the key')
    .requiredOption('--from <url>', 'base address of the source service (e.g. https://content.example.com)')
    .requiredOption('--key <key>', 'API key of the website to copy; registered (as its SHA-256) on the website here')
    .option('--website-id <id>', 'website to fill here (default: the one the key already has, else one derived from the URL and the key)', uuidOption)
    .option('--prune', 'make active offers of the organization that the source no longer lists inactive')
    .addOption(new Option('--attempts <n>', 'tries of one request before giving up (429, 5xx, network errors)').argParser(wholeNumber(1, 100)).default(6))
    .addOption(new Option('--timeout <seconds>', 'time limit of one request').argParser(wholeNumber(1, 3600)).default(30))
    .addOption(new Option('--page-size <n>', 'offers a page (the interface allows at most 100)').argParser(wholeNumber(1, 100)).hideHelp())
    .addOption(new Option('--retry-delay-ms <ms>', 'first backoff step').argParser(wholeNumber(0, 600_000)).hideHelp())
    .addOption(new Option('--retry-after-cap-ms <ms>', 'longest Retry-After honoured').argParser(wholeNumber(0, 3_600_000)).hideHelp())
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/mirror/cli.js')).mirrorCommand(io, options));

  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key for a website and print it (once)')
    .requiredOption('--website <id>', 'website id')
    .option('--label <label>', 'a note to tell keys apart')
    .option('--expires-at <time>', 'RFC 3339 date-time after which the key is refused')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/access/cli.js')).keysCreateCommand(io, options));
  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .option('--website <id>', 'only the keys of this website')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/access/cli.js')).keysListCommand(io, options));
  keys
    .command('deactivate')
    .description('switch a key off (takes effect within 5 seconds)')
    .argument('<key_id>')
    .option('--json', JSON_HELP)
    .action(async (keyId: string, options) => (await import('../features/access/cli.js')).keysSetActiveCommand(io, keyId, false, options));
  keys
    .command('activate')
    .description('switch a key on again')
    .argument('<key_id>')
    .option('--json', JSON_HELP)
    .action(async (keyId: string, options) => (await import('../features/access/cli.js')).keysSetActiveCommand(io, keyId, true, options));

  const websites = program.command('websites').description('list websites and set what each one sees (its scope)');
  websites
    .command('list')
    .description('list websites with their keys (active/all) and scope')
    .option('--organization <id>', 'only the websites of this organization')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/access/cli.js')).websitesListCommand(io, options));
  websites
    .command('scope')
    .description(
      'show a website\'s scope, set it to exactly the lists given (offers must match every list), or --clear it ' +
        '(takes effect within 5 seconds). An import leaves it as it is unless the website\'s record gives ' +
        '"scope" (lists, or null to remove it)',
    )
    .requiredOption('--website <id>', 'website id')
    .option('--investment <id...>', 'only offers of these investments (and only these investments)')
    .option('--branch <id...>', 'only offers of these branches')
    .option('--offer-type <type...>', 'only offers of these types (e.g. APARTMENT_SALES)')
    .option('--clear', 'remove the scope: the website sees its whole organization')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/access/cli.js')).websitesScopeCommand(io, options));
  const transparency = program
    .command('transparency')
    .description("turn an organization's public price-transparency dataset (dane.gov.pl) on and off");
  transparency
    .command('enable')
    .description('publish the dataset at /open-data/<organization>/... (refused while the developer data lacks what it needs)')
    .requiredOption('--organization <id>', 'organization id')
    .requiredOption('--public-url <url>', 'the address the service is reached at from outside (the XML names the files under it)')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/transparency/cli.js')).transparencyEnableCommand(io, options));
  transparency
    .command('disable')
    .description('stop publishing the dataset (its paths answer 404)')
    .requiredOption('--organization <id>', 'organization id')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/transparency/cli.js')).transparencyDisableCommand(io, options));
  transparency
    .command('status')
    .description('each organization: dataset on or off, its public URL, what its developer data lacks')
    .option('--organization <id>', 'only this organization')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/transparency/cli.js')).transparencyStatusCommand(io, options));
  websites
    .command('urls')
    .description(
      'show a website\'s URL templates (its sitemap\'s addresses: GET /api/v1/sitemap.xml), set them, or --clear them. ' +
        'An import leaves them as they are unless the website\'s record gives "urls"',
    )
    .requiredOption('--website <id>', 'website id')
    .option('--offer <template>', "an offer's address, with {slug} (e.g. 'https://www.agency.pl/oferta/{slug}')")
    .option('--investment <template>', "an investment's address, with {slug} (e.g. 'https://www.agency.pl/inwestycja/{slug}')")
    .option('--clear', 'remove both templates')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/seo/cli.js')).websitesUrlsCommand(io, options));
  const webhooks = program.command('webhooks').description('manage webhook endpoints (the running service sends the messages)');
  webhooks
    .command('add')
    .description('add an endpoint that receives a website\'s content.changed messages; prints its signing secret (once)')
    .requiredOption('--website <id>', 'website id')
    .requiredOption('--url <url>', 'http:// or https:// URL that receives the POSTs')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/webhooks/cli.js')).webhooksAddCommand(io, options));
  webhooks
    .command('list')
    .description('list webhook endpoints (never their secrets)')
    .option('--website <id>', 'only the endpoints of this website')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/webhooks/cli.js')).webhooksListCommand(io, options));
  webhooks
    .command('remove')
    .description('remove an endpoint and its delivery log')
    .argument('<endpoint_id>')
    .option('--json', JSON_HELP)
    .action(async (endpointId: string, options) => (await import('../features/webhooks/cli.js')).webhooksRemoveCommand(io, endpointId, options));
  webhooks
    .command('test')
    .description('queue a webhook.test message for an endpoint')
    .argument('<endpoint_id>')
    .option('--json', JSON_HELP)
    .action(async (endpointId: string, options) => (await import('../features/webhooks/cli.js')).webhooksTestCommand(io, endpointId, options));
  webhooks
    .command('deliveries')
    .description('the delivery log, newest first')
    .option('--failed', 'only deliveries given up after the retry period')
    .option('--endpoint <id>', 'only the deliveries to this endpoint')
    .option('--limit <n>', 'how many (default 50)')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/webhooks/cli.js')).webhooksDeliveriesCommand(io, options));
  const feed = program.command('feed').description('the change feed (GET /api/v1/changes)');
  feed
    .command('purge')
    .description('drop change-feed deletes older than FEED_RETENTION_DAYS now (every import does it too)')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('../features/change-feed/cli.js')).feedPurgeCommand(io, options));

  program
    .command('demo')
    .description('load the demo data set and print a working API key')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('./commands/demo.js')).demoCommand(io, options));

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .option('--json', JSON_HELP)
    .action(async (options) => (await import('./commands/migrate.js')).migrateCommand(io, options));

  return program;
}


export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const seen = { json: false };
  const program = buildProgram(io, seen);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (or the help) already.
      return error.exitCode === 0 ? 0 : 2;
    }
    // Mistakes and faults alike: one line with the message, no stack trace. A rejected bundle's
    // problems were printed by the command; this is their summary line.
    const message = describeError(error);
    io.stderr.write(`error: ${message}\n`);
    if (seen.json && !(error instanceof ImportRejectedError)) io.stdout.write(json({ error: message }));
    return 1;
  }
}
