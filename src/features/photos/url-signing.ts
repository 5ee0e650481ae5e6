/**
 * Signing variant URLs: an HMAC-SHA256 of everything the URL names (offer, photo, source hash,
 * width, format) under the service's secret, 128 bits of it in base64url. Only URLs the service
 * issued verify, so a request cannot choose a size, a format or a source: a changed part answers
 * 404 before any file or database is looked at.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { signedText, type VariantAddress } from './model.js';

const SIGNATURE_BYTES = 16;
/** 16 bytes in base64url, unpadded. */
const SIGNATURE_CHARS = 22;

export class UrlSigner {
  /** Prepared once: a string secret would be converted again by every HMAC. */
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private mac(address: VariantAddress): Buffer {
    return createHmac('sha256', this.key).update(signedText(address)).digest().subarray(0, SIGNATURE_BYTES);
  }

  sign(address: VariantAddress): string {
    return this.mac(address).toString('base64url');
  }

  /** True when `signature` is the one this secret gives the address (compared in constant time). */
  verify(address: VariantAddress, signature: string): boolean {
    if (signature.length !== SIGNATURE_CHARS) return false;
    const given = Buffer.from(signature, 'base64url');
    // Only the canonical spelling verifies (base64url decoding skips stray characters).
    if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== signature) return false;
    return timingSafeEqual(given, this.mac(address));
  }
}
