/**
 * /docs in a real browser: Debian's Chromium driven by playwright-core (the library only; it never
 * downloads a browser). The service listens on an ephemeral port with the fixture loaded; the test
 * checks that the page lists every operation of /openapi.json, authorizes with a key the way a
 * reader would (Authorize, paste the key) and runs one request with "Try it out" / "Execute".
 *
 * Chromium: CHROMIUM_PATH, else /usr/bin/chromium (`apt-get install -y chromium`). Without it the
 * test is skipped and says so; .ci/run installs it where it can.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS, ORG_A } from '../helpers/fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `[docs-page.browser] skipped: no Chromium at ${CHROMIUM}. ` +
      'Install it (Debian: apt-get install -y chromium) or point CHROMIUM_PATH at a Chromium or Chrome executable.',
  );
}

type OpenApiDoc = { paths: Record<string, Record<string, { operationId: string; tags?: string[] }>> };

describe.skipIf(!haveChromium)('/docs in headless Chromium', () => {
  let t: TestApp;
  let base: string;
  let doc: OpenApiDoc;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDoc;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 45_000 });
    page = await browser.newPage();
    page.setDefaultTimeout(20_000); // generous for a busy CI machine; a pass takes a few seconds
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  it('lists every operation of /openapi.json under each of its tags, and no other', async () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ line: `${method.toUpperCase()} ${path}`, ...op })),
    );
    expect(operations.length).toBeGreaterThan(5);
    const blocks = await page.locator('.opblock').evaluateAll((elements) =>
      elements.map((block) => ({
        id: block.id,
        line: `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      })),
    );
    // Swagger UI shows an operation once under each of its tags (operations-TAG-OPERATIONID); in
    // the id, white space of a tag becomes `_` ("open data" → operations-open_data-…).
    const domId = (tag: string) => tag.trim().replace(/\s/g, '_');
    const expectedIds = operations.flatMap((op) =>
      (op.tags ?? ['default']).map((tag) => `operations-${domId(tag)}-${op.operationId}`),
    );
    expect(blocks.map((b) => b.id).sort()).toEqual(expectedIds.sort());
    expect([...new Set(blocks.map((b) => b.line))].sort()).toEqual(operations.map((op) => op.line).sort());
  });

  it('authorizes with a key and runs GET /api/v1/organization from the page', async () => {
    // Authorize: the dialog names the header scheme; the key goes into its value field.
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('APIKeyHeader');
    await dialog.locator('input[type="text"], input[type="password"]').first().fill(KEYS.activeA1);
    await dialog.locator('button.modal-btn.auth', { hasText: 'Authorize' }).click();
    await dialog.locator('button', { hasText: 'Logout' }).waitFor(); // authorized
    await dialog.locator('button.btn-done, button.modal-btn.btn-done').first().click();
    await dialog.waitFor({ state: 'detached' });

    // The operation: open it, "Try it out", "Execute".
    const { operationId, tags } = doc.paths['/api/v1/organization']!.get!;
    const block = page.locator(`#operations-${tags![0]}-${operationId}`);
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();

    const live = block.locator('.live-responses-table');
    await live.waitFor();
    const status = (await live.locator('.response .response-col_status').first().textContent())?.trim();
    expect(status).toBe('200');
    const body = await live.locator('.response-col_description pre.microlight, .response-col_description .highlight-code pre').first().textContent();
    const parsed = JSON.parse(body ?? 'null') as { organization_id?: string };
    expect(parsed.organization_id).toBe(ORG_A);
    // The page sent the key it was given, in the Authorization header (its curl line shows it).
    await expect(block.locator('.curl-command').textContent()).resolves.toContain(`Authorization: ${KEYS.activeA1}`);
  });
});
