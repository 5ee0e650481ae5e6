/**
 * The command line, callable in-process: runCli(argv, io) parses, runs one command and returns the
 * exit status. 0 success; 1 a mistake to fix (bad file, unknown id, invalid bundle, database not
 * reachable, another import running) or a fault; 2 wrong usage. A failure is one line on stderr,
 * never a stack trace; with --json stdout holds one JSON document (the result, or {"error": ...}).
 */
import { Command, CommanderError, Option } from 'commander';
import { ImportRejectedError } from '../import/index.js';
import { demoCommand } from './commands/demo.js';
import { feedPurgeCommand } from './commands/feed.js';
import { importCommand } from './commands/import.js';
import { keysCreateCommand, keysListCommand, keysSetActiveCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { describeError, type CliIo } from './context.js';
import { json } from './output.js';

export type { CliIo } from './context.js';

const JSON_HELP = 'print one JSON document on stdout and nothing else';

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
    .action((file: string, options) => importCommand(io, file, options));

  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .description('create an API key for a website and print it (once)')
    .requiredOption('--website <id>', 'website id')
    .option('--label <label>', 'a note to tell keys apart')
    .option('--expires-at <time>', 'RFC 3339 date-time after which the key is refused')
    .option('--json', JSON_HELP)
    .action((options) => keysCreateCommand(io, options));
  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .option('--website <id>', 'only the keys of this website')
    .option('--json', JSON_HELP)
    .action((options) => keysListCommand(io, options));
  keys
    .command('deactivate')
    .description('switch a key off (takes effect within 5 seconds)')
    .argument('<key_id>')
    .option('--json', JSON_HELP)
    .action((keyId: string, options) => keysSetActiveCommand(io, keyId, false, options));
  keys
    .command('activate')
    .description('switch a key on again')
    .argument('<key_id>')
    .option('--json', JSON_HELP)
    .action((keyId: string, options) => keysSetActiveCommand(io, keyId, true, options));

  const feed = program.command('feed').description('the change feed (GET /api/v1/changes)');
  feed
    .command('purge')
    .description('drop change-feed deletes older than FEED_RETENTION_DAYS now (every import does it too)')
    .option('--json', JSON_HELP)
    .action((options) => feedPurgeCommand(io, options));

  program
    .command('demo')
    .description('load the demo data set and print a working API key')
    .option('--json', JSON_HELP)
    .action((options) => demoCommand(io, options));

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .option('--json', JSON_HELP)
    .action((options) => migrateCommand(io, options));

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
