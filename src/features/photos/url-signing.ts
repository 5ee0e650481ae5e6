/**
 * Signing variant URLs: an HMAC-SHA256 of everything the URL names (offer, photo, source hash,
 * width, format) under the service's secret, 128 bits of it in base64url. Only URLs the service
 * issued verify, so a request cannot choose a size, a format or a source: a changed part answers
 * 404 before any file or database is looked at.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signedText, type VariantAddress } from './model.js';

const SIGNATURE_BYTES = 16;

export class UrlSigner {
  constructor(private readonly secret: string) {}

  sign(address: VariantAddress): string {
    return createHmac('sha256', this.secret).update(signedText(address)).digest().subarray(0, SIGNATURE_BYTES).toString('base64url');
  }

  /** True when `signature` is the one this secret gives the address (compared in constant time). */
  verify(address: VariantAddress, signature: string): boolean {
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== signature) return false;
    return timingSafeEqual(given, Buffer.from(this.sign(address), 'base64url'));
  }
}
