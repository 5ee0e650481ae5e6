/**
 * The house rules of src/ (`npm run check:deps`, run by CI), each with its reason. The house:
 *
 *   contract/    the interface's data forms: resource schemas, the offer field catalogue, timestamps
 *   text/        words for people: plurals, did-you-mean (a leaf)
 *   metrics/     the Prometheus registry (a leaf: anyone may be handed it)
 *   db/          connection, table types, the migrator and its frozen migrations, SQL routines, upsert
 *   xml/         XML escaping and element writers
 *   jobs/        the background workers' shared claim loop (a leaf: the wings hand it their SQL)
 *   features/    one wing per feature: catalog, offers, access, change-feed, webhooks,
 *                content-version, mirror. A wing's core (model, reads, writes, its own modules) is
 *                reached through its index.ts; its faces (http.ts, cli.ts, *-http.ts) are
 *                registered by the shell.
 *   import/      the import pipeline: it calls the wings' writes
 *   demo/        the demo data set (data plus the import)
 *   http/        plumbing of the HTTP side: plugins, FastAPI-compatible validation, caching
 *   cli/         the command line's dispatcher and plumbing
 *   src/*.ts     the shell: config, services (the composition root), app, routes, server
 */
const layer = (name, mayNotImport, comment) => ({
  name: `layer-${name}`,
  comment,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${mayNotImport.join('|')})(/|\\.ts$)` },
});

const SHELL = ['app', 'routes', 'server', 'services', 'config'];
const ABOVE_DB = ['contract', 'xml', 'jobs', 'features', 'import', 'demo', 'http', 'cli', ...SHELL];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module must not depend on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('metrics', ['db', 'text', 'jobs', 'contract', 'xml', 'features', 'import', 'demo', 'http', 'cli', ...SHELL], 'Metrics know nothing of the service: they are handed the figures.'),
    layer('text', ['db', 'contract', 'jobs', 'metrics', 'xml', 'features', 'import', 'demo', 'http', 'cli', ...SHELL], 'Words for people know nothing of the service.'),
    layer('jobs', ['db', 'text', 'contract', 'metrics', 'xml', 'features', 'import', 'demo', 'http', 'cli', ...SHELL], 'The claim loop only schedules: what a job is and how it is claimed are its callers\' business.'),
    layer('contract', ['db', 'metrics', 'jobs', 'xml', 'features', 'import', 'demo', 'http', 'cli', ...SHELL], 'The contract is the interface\'s vocabulary: pure, beneath everything.'),
    layer('db', ABOVE_DB.filter((name) => name !== 'contract'), 'The database layer knows only itself and the contract\'s forms.'),
    layer('xml', ['db', 'jobs', 'features', 'import', 'demo', 'http', 'cli', ...SHELL], 'XML writes elements; what they hold is the callers\' business.'),
    layer('import', ['demo', 'http', 'cli', ...SHELL], 'The import calls the wings\' writes; it never serves or parses a command line.'),
    layer('demo', ['http', 'cli', ...SHELL], 'The demo is data plus the import.'),
    layer('http', ['import', 'demo', 'cli', ...SHELL.filter((name) => name !== 'services')], 'The HTTP plumbing reads; it never imports content or runs commands.'),
    {
      name: 'shell-on-top',
      comment:
        'The shell builds everything and nothing builds the shell: the HTTP plumbing and the wings know the services only as a type (what a handler is given).',
      severity: 'error',
      from: { path: '^src/(http|features)/' },
      to: { path: `^src/(${SHELL.join('|')})\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
    layer('cli', ['http', 'app', 'routes', 'server', 'services'], 'The command line does not serve HTTP.'),
    {
      name: 'wing-through-index',
      comment:
        'A wing uses another wing only through its index.ts, the surface it keeps stable; what is behind it may move freely.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'plumbing-through-index',
      comment:
        'Outside the wings, code uses a wing through its index.ts; only the shell (the app with its key check, the route table, the command dispatcher) registers its faces.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/features/', '^src/(app|routes)\\.ts$', '^src/cli/run\\.ts$'] },
      to: { path: '^src/features/[^/]+/', pathNot: '^src/features/[^/]+/index\\.ts$' },
    },
    {
      name: 'shell-registers-faces',
      comment: 'The app, the route table and the command dispatcher take a wing\'s faces (http, cli) and nothing else behind its index.',
      severity: 'error',
      from: { path: ['^src/(app|routes)\\.ts$', '^src/cli/run\\.ts$'] },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/[^/]+/index\\.ts$', '^src/features/.*(^|/|-)(http|cli)\\.ts$'] },
    },
    {
      name: 'index-leaves-faces-out',
      comment:
        'A wing\'s index.ts never hands out its faces: faces sit above every wing\'s core (they use the HTTP and command-line plumbing and other wings), so exporting them would tie the wings in a circle.',
      severity: 'error',
      from: { path: '^src/features/[^/]+/index\\.ts$' },
      to: { path: '(^|/|-)(http|cli)\\.ts$' },
    },
    {
      name: 'core-below-faces',
      comment:
        'A wing\'s core (everything but its faces) knows the database, the contract and other wings\' cores, never the HTTP or command-line plumbing nor the import pipeline that runs it. The mirror is the one wing above the import: it is a source of bundles.',
      severity: 'error',
      from: { path: '^src/features/', pathNot: ['(^|/|-)(http|cli)\\.ts$', '^src/features/mirror/'] },
      // The FastAPI-compatible checking primitives (issues, lax conversions) are pure: request checks build on them.
      to: { path: '^src/(http|cli|import|demo)/', pathNot: '^src/http/validation/' },
    },
    {
      name: 'model-is-pure',
      comment:
        'A model (and the contract) computes; it does no I/O, so it can be tested and reused anywhere. It may use other wings\' surfaces (their vocabulary) and any type.',
      severity: 'error',
      from: { path: ['^src/features/([^/]+)/model\\.ts$', '^src/contract/'] },
      to: {
        path: ['^src/(db|http|cli|import)/', '^src/features/[^/]+/(?!index\\.ts$)', 'node_modules/(kysely|pg|fastify|@electric-sql|ioredis|lru-cache)/', '^(fs|net|http|https|http2|child_process|dgram|dns|tls|cluster|worker_threads)$'],
        pathNot: '^src/features/$1/(model|scope)\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'only-the-migrator-imports-migrations',
      comment:
        'Migrations are frozen in time: live code that imported their constants would change the past when it changed. Current SQL lives in db/routines/, with its TypeScript twins beside it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/db/migrator\\.ts$', '^src/db/migrations/'] },
      to: { path: '^src/db/migrations/' },
    },
    {
      name: 'sql-in-its-files',
      comment:
        'SQL is written in db/ and in files named for it (read.ts, write.ts, *-read.ts, *-write.ts, *-sql.ts, sql.ts), so a reader finds every statement by its file name (kysely is imported nowhere else).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/db/', '(^|/|-)(read|write|sql)\\.ts$'] },
      // Type-only imports (a Kysely<Database> handle passed along) are fine.
      to: { path: 'node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-dev-tools-in-src',
      comment: 'What ships in dist/ never imports a development dependency.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
