/**
 * keys create / list / deactivate / activate. A new key is printed once; listings never show a
 * key or its hash.
 */
import { createKey, listKeys, setKeyActive } from '../../writes/api-keys.js';
import { withDatabase, type CliIo } from '../context.js';
import { json, keyJson, keysText } from '../output.js';

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
