/**
 * The database handle the HTTP side is given: reads only. It is an allow-list of Kysely's
 * read-side methods, so `insertInto`, `updateTable`, `deleteFrom`, `mergeInto`, `replaceInto`,
 * `with` (whose query creator can write), `schema`, `transaction` and friends do not exist on it
 * and a write in a route fails to compile. `getExecutor` stays so that `sql\`select 1\`.execute(db)`
 * works; raw SQL is used only for reads (see health.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export type ReadonlyKysely<DB> = Pick<Kysely<DB>, 'selectFrom' | 'selectNoFrom' | 'fn' | 'case' | 'dynamic' | 'getExecutor'>;

export type ReadDb = ReadonlyKysely<Database>;
