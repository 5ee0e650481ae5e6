/**
 * The signer against the Standard Webhooks reference library (known vector and random messages),
 * the endpoint URL rules and the retry schedule.
 */
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, generateSecret, retryDelayMs, signatureHeaders } from '../../../src/features/webhooks/model.js';
import { verifyByHand } from '../../helpers/webhook-receiver.js';

describe('webhook signatures', () => {
  it('match the Standard Webhooks example', () => {
    // The example of the Standard Webhooks specification and its libraries' tests.
    const headers = signatureHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('are what the reference library computes, for any message', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 1, max: 2 ** 31 }), fc.stringMatching(/^msg_[0-9a-f]{32}$/), (body, timestamp, id) => {
        const secret = generateSecret();
        const ours = signatureHeaders(secret, id, timestamp, body);
        expect(ours['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
        expect(verifyByHand(secret, id, String(timestamp), body, ours['webhook-signature']!)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('webhook endpoint URLs', () => {
  it('keep http(s) URLs, normalized', () => {
    expect(checkEndpointUrl('HTTPS://Example.COM/a b?x=1')).toEqual({ ok: true, url: 'https://example.com/a%20b?x=1' });
    expect(checkEndpointUrl('http://127.0.0.1:8080')).toEqual({ ok: true, url: 'http://127.0.0.1:8080/' });
  });

  it('refuse other schemes, credentials, fragments and very long URLs', () => {
    for (const url of ['ws://example.com/', 'mailto:a@example.com', 'data:text/plain,x', 'http://a:b@example.com/', 'https://example.com/#x', `https://example.com/${'a'.repeat(2100)}`, '']) {
      expect(checkEndpointUrl(url).ok, url).toBe(false);
    }
  });
});

describe('the retry schedule', () => {
  it('grows 6 times per attempt up to its longest wait', () => {
    const schedule = { firstDelayMs: 5000, maxDelayMs: 3_600_000, giveUpAfterMs: 86_400_000 };
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => retryDelayMs(schedule, n))).toEqual([5000, 30_000, 180_000, 1_080_000, 3_600_000, 3_600_000, 3_600_000]);
  });
});
