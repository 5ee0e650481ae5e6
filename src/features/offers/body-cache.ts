/**
 * The stored offer_data_json of recently served offers, as UTF-8 bytes, by offer id: pages and
 * single offers are assembled from these pieces, so a hot offer's body is read from the database
 * (out of line storage, decompressed) and sent over the wire once, not on every request. This is
 * serialization work kept between requests, like the XML fragment cache, not a response cache: it
 * is on whatever RESPONSE_CACHE says.
 *
 * Each piece carries the row version token it was read with (xmin, version, updated_at; see
 * src/features/offers/read.ts): the queries always read the current token and use a piece only when the
 * tokens are equal, so a changed offer is never served stale, whoever changed it and however.
 * Bounded by bytes (LRU). buildApp makes one and hands it to the offer reader.
 */
import { LRUCache } from 'lru-cache';

interface Piece {
  readonly token: string;
  readonly bytes: Buffer;
}

export class OfferBodyCache {
  private readonly lru: LRUCache<string, Piece>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Piece>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (piece, key) => piece.bytes.length + piece.token.length + key.length + 64,
    });
  }

  /** The token of the piece held for an offer, if any (to ask the database whether it is current). */
  tokenOf(offerId: string): string | undefined {
    return this.lru.peek(offerId)?.token;
  }

  /** The bytes of an offer's body read with this row version token, if held. */
  get(offerId: string, token: string): Buffer | undefined {
    const piece = this.lru.get(offerId);
    return piece !== undefined && piece.token === token ? piece.bytes : undefined;
  }

  set(offerId: string, token: string, bytes: Buffer): void {
    this.lru.set(offerId, { token, bytes });
  }

  clear(): void {
    this.lru.clear();
  }
}
