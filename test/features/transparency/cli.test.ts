/**
 * transparency enable / disable / status (extension E10), in process on a test database: enable is
 * refused while the developer data lacks what the dataset needs (listing it), and status and
 * disable say what they did, as text and as --json.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { importObject } from '../../import/helpers.js';

class Capture {
  text = '';
  isTTY = false;
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

describe('transparency commands', () => {
  let t: TestDb;
  const org = randomUUID();
  const bare = randomUUID();
  const cli = async (args: string[]) => {
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await runCli(args, { env: {}, stdout, stderr, database: t });
    return { code, stdout: stdout.text, stderr: stderr.text };
  };

  beforeAll(async () => {
    t = await createTestDb();
    const address = { voivodeship: 'mazowieckie', county: 'Warszawa', community: 'Warszawa', city: 'Warszawa', street: 'Prosta', building_number: '1', postcode: '00-838' };
    await importObject(t.db, {
      organizations: [
        {
          organization_id: org,
          name: 'Dev',
          developer: {
            legal_name: 'Dev sp. z o.o.', legal_form: 'spółka z o.o.', krs: '0000123456', nip: '1234563218', regon: '123456785',
            phone: '+48 1', email: 'a@b.pl', website: 'https://b.pl', seat: address, sales_offices: [address], contact_method: 'telefon',
          },
        },
        { organization_id: bare, name: 'Bare', developer: { legal_name: 'Bare', nip: '1234563218' } },
      ],
    });
  });
  afterAll(() => t.destroy());

  it('enable is refused, listing what is missing', async () => {
    const r = await cli(['transparency', 'enable', '--organization', bare, '--public-url', 'https://x.pl']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/developer\.legal_form/);
    expect(r.stderr).toMatch(/developer\.krs or developer\.ceidg/);
    expect(r.stderr).toMatch(/developer\.sales_offices/);
  });

  it('enable, status and disable', async () => {
    const on = await cli(['transparency', 'enable', '--organization', org, '--public-url', 'https://ceny.example.pl/', '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ organization_id: org, enabled: true, public_url: 'https://ceny.example.pl', urls: [`https://ceny.example.pl/open-data/${org}/dataset.xml`, `https://ceny.example.pl/open-data/${org}/prices.csv`] });
    const status = await cli(['transparency', 'status', '--json']);
    const rows = JSON.parse(status.stdout) as Array<{ organization_id: string; enabled: boolean; missing: string[] }>;
    expect(rows.find((r) => r.organization_id === org)).toMatchObject({ enabled: true, missing: [] });
    expect(rows.find((r) => r.organization_id === bare)!.enabled).toBe(false);
    expect((await cli(['transparency', 'status'])).stdout).toMatch(/ORGANIZATION ID/);
    const off = await cli(['transparency', 'disable', '--organization', org]);
    expect(off.stdout).toMatch(/is off/);
    expect((await cli(['transparency', 'disable', '--organization', org])).stdout).toMatch(/was not on/);
    expect((await cli(['transparency', 'enable', '--organization', 'nope', '--public-url', 'https://x.pl'])).code).not.toBe(0);
  });
});
