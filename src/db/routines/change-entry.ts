/**
 * ecs_change_entry: the JSON of one change of the change feed (extension E5), all but its cursor
 * (`","kind":…,"updated_at":"…"}`), which the feed's writer (src/features/change-feed/write.ts)
 * stores with every row (website_changes.entry_json) and a page joins behind its cursors
 * (src/features/change-feed/read.ts). It must write what the API's own forms give: the keys in the
 * order of ChangeSchema, `updated_at` as toApiTimestamp writes it (UTC, microseconds only when
 * there are some); every other value needs no JSON escaping.
 * test/features/change-feed/change-entry.property.test.ts holds it to them.
 *
 * Its results are stored: changing what it writes needs a migration that rewrites entry_json for
 * every row, in the same change. Created by migration 2026_11_25_0014, whose text this is.
 */
import { routine, type Routine } from './routine.js';

export const CHANGE_ENTRY_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_change_entry(kind text, entity_id uuid, op text, version integer, updated_at timestamptz)
    RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT '","kind":"' || kind || '","id":"' || entity_id || '","op":"' || op || '","version":' || version
        || ',"updated_at":"' || replace(to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '.000000Z', 'Z') || '"}'
    $$`);
