/**
 * The layers of src/ and which way they may depend (`npm run check:deps`, run by CI). Lower layers
 * never import higher ones, so no two folders can depend on each other:
 *
 *   metrics     the Prometheus registry and its metrics (a leaf: anyone may be handed it)
 *   db          connection, table types, migrations
 *   domain      field catalogue, resource schemas, query vocabulary, mappers (no I/O)
 *   cache, xml  in-process caches; XML rendering
 *   queries     reads (the API's, through a read-only handle)
 *   writes      everything that changes stored data (import statements, keys, content version)
 *   import      the import pipeline (streams, checks, steps); its SQL is in writes/
 *   demo        the demo data set
 *   webhooks    the webhook sender of a running instance; its SQL is in writes/
 *   mirror      reads a running service of the original interface and feeds the import
 *   http        Fastify: routes, validation, plugins
 *   cli         the command line
 *   src/*.ts    config, app assembly, the server entry point
 */
const layer = (name, mayNotImport, comment) => ({
  name: `layer-${name}`,
  comment,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: `^src/(${mayNotImport.join('|')})(/|\\.ts$)` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module must not depend on itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('metrics', ['db', 'domain', 'cache', 'xml', 'queries', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'control-socket', 'webhooks'], 'Metrics know nothing of the service: they are handed the figures.'),
    layer('db', ['domain', 'cache', 'xml', 'queries', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'The database layer knows only itself.'),
    layer('domain', ['cache', 'xml', 'queries', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'The domain is pure: no I/O, no HTTP.'),
    layer('cache', ['db', 'xml', 'queries', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'Caches are handed what they need.'),
    layer('xml', ['db', 'cache', 'queries', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'XML renders domain views.'),
    layer('queries', ['xml', 'writes', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'Reads never write and never know HTTP.'),
    layer('writes', ['cache', 'xml', 'queries', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'Writes know the database and the domain.'),
    layer('import', ['cache', 'xml', 'queries', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'The import runs its SQL through writes/.'),
    layer('demo', ['cache', 'xml', 'queries', 'mirror', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'The demo is data plus the import.'),
    layer('mirror', ['cache', 'xml', 'writes', 'demo', 'http', 'cli', 'app', 'server', 'config', 'webhooks'], 'Mirror reads a source over HTTP and writes only through the import.'),
    layer('webhooks', ['cache', 'xml', 'queries', 'import', 'demo', 'mirror', 'http', 'cli', 'app', 'server', 'config'], 'The sender is handed its settings; its SQL is in writes/.'),
    layer('http', ['writes', 'import', 'demo', 'cli', 'app', 'server', 'mirror', 'webhooks'], 'HTTP reads; it never imports or writes content.'),
    layer('cli', ['http', 'app', 'server', 'webhooks'], 'The command line does not serve HTTP.'),
    {
      name: 'http-schemas-before-validation',
      comment: 'Request schemas describe; validation reads them, never the other way round.',
      severity: 'error',
      from: { path: '^src/http/schemas/' },
      to: { path: '^src/http/(validation|routes|plugins|auth|caching)/' },
    },
    {
      name: 'no-sql-outside-its-folders',
      comment: 'SQL lives in db/, queries/ and writes/ (kysely is imported nowhere else).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(db|queries|writes)/' },
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
