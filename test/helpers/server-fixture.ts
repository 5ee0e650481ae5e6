/**
 * The setup the server-process tests share, for one describe block: a database with the HTTP test
 * fixture in it (helpers/processes.ts prepareDatabase), prepared before the block's tests and
 * dropped after them, and server processes started on it, each killed after the test that started
 * it (a test that fails half-way leaves no server holding the database for the next).
 *
 *   const fixture = useServerFixture();
 *   it('…', async () => {
 *     const server = await fixture.startServer({ LOG_LEVEL: 'info' });
 *   });
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { prepareDatabase, startServer, type PreparedDatabase, type ServerProcess } from './processes.js';

export interface ServerFixture {
  /** The block's database (ready inside hooks and tests, not while the block is being defined). */
  readonly database: PreparedDatabase;
  /** A server on the block's database, `env` over its DATA_DIR or DATABASE_URL; killed after the test. */
  startServer(env?: Record<string, string | undefined>): Promise<ServerProcess>;
}

export function useServerFixture(): ServerFixture {
  let database: PreparedDatabase | undefined;
  const startedInTest: ServerProcess[] = [];

  // Preparing copies and fills a database: slow on a loaded machine.
  beforeAll(async () => {
    database = await prepareDatabase();
  }, 240_000);
  afterEach(() => {
    for (const server of startedInTest.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    }
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const fixture: ServerFixture = {
    get database() {
      if (!database) throw new Error('the server fixture\'s database is prepared in beforeAll: use it inside hooks and tests');
      return database;
    },
    async startServer(env = {}) {
      const server = await startServer({ ...fixture.database.env, ...env });
      startedInTest.push(server);
      return server;
    },
  };
  return fixture;
}
