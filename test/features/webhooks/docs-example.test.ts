/**
 * The verification code that docs/webhooks.md gives websites works: its `verify` function,
 * taken from the page as it is, accepts our signed messages and refuses altered, re-timed or
 * foreign ones.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSecret, signatureHeaders } from '../../../src/features/webhooks/model.js';
import { projectRoot } from '../../helpers/processes.js';

type Verify = (headers: Record<string, string>, body: string) => boolean;

function documentedVerify(secretText: string): Verify {
  const page = fs.readFileSync(path.join(projectRoot, 'docs/webhooks.md'), 'utf8');
  const code = /\n(function verify\(headers, body\) \{[\s\S]*?\n\})\n/.exec(page)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no verify(headers, body) function');
  const secret = Buffer.from(secretText.replace(/^whsec_/, ''), 'base64');
  return new Function('crypto', 'secret', `${code}\nreturn verify;`)(crypto, secret) as Verify;
}

describe('the verification example of the webhooks docs', () => {
  const secret = generateSecret();
  const verify = documentedVerify(secret);
  const body = JSON.stringify({ type: 'content.changed', timestamp: new Date().toISOString(), data: { website_id: 'w', cursor: 'c', counts: {} } });
  const now = Math.floor(Date.now() / 1000);

  it('accepts a message the service signed', () => {
    expect(verify(signatureHeaders(secret, 'msg_1', now, body), body)).toBe(true);
  });

  it('refuses an altered body, another secret, an old timestamp and missing headers', () => {
    expect(verify(signatureHeaders(secret, 'msg_1', now, body), body + ' ')).toBe(false);
    expect(verify(signatureHeaders(generateSecret(), 'msg_1', now, body), body)).toBe(false);
    expect(verify(signatureHeaders(secret, 'msg_1', now - 3600, body), body)).toBe(false);
    const { 'webhook-id': _id, ...noId } = signatureHeaders(secret, 'msg_1', now, body);
    expect(verify(noId, body)).toBe(false);
    expect(verify({ ...signatureHeaders(secret, 'msg_1', now, body), 'webhook-signature': 'v1,short' }, body)).toBe(false);
  });
});
