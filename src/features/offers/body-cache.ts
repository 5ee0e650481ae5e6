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
import { fieldTextsOf } from './sparse-fields.js';

interface Piece {
  readonly token: string;
  readonly bytes: Buffer;
  /** Each offer_data field's `"name":value` text (sparse-fields.ts), made on the first sparse request. */
  readonly texts?: readonly (string | undefined)[];
  /** offer_data with its translation into a language (E12), by language tag, made on the first request for it. */
  readonly translated?: ReadonlyMap<string, Buffer>;
}

/** The bytes a piece holds: the body, its field texts (about the body again, at two bytes a character at most) and its translations. */
function pieceBytes(piece: Piece): number {
  let bytes = piece.bytes.length * (piece.texts ? 3 : 1);
  if (piece.translated) for (const body of piece.translated.values()) bytes += body.length;
  return bytes;
}

export class OfferBodyCache {
  private readonly lru: LRUCache<string, Piece>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Piece>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (piece, key) => pieceBytes(piece) + piece.token.length + key.length + 64,
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

  /**
   * The field texts of an offer's body read with this token (sparse fields, extension E13): kept
   * with the body when the cache holds it, so they are made once per stored version of an offer.
   */
  fieldTexts(offerId: string, token: string, bytes: Buffer): readonly (string | undefined)[] {
    const piece = this.lru.get(offerId);
    if (piece !== undefined && piece.token === token && piece.texts !== undefined) return piece.texts;
    const texts = fieldTextsOf(bytes.toString('utf8'));
    if (piece !== undefined && piece.token === token) this.lru.set(offerId, { ...piece, texts });
    return texts;
  }

  /**
   * An offer's offer_data translated into `lang` (E12), for the body read with this token: made by
   * `make` once per stored version and language while the cache holds the body, since parsing and
   * writing 6 KB of JSON again was most of what a translated list page cost.
   */
  translated(offerId: string, token: string, lang: string, make: () => Buffer): Buffer {
    const piece = this.lru.get(offerId);
    if (piece === undefined || piece.token !== token) return make();
    const held = piece.translated?.get(lang);
    if (held !== undefined) return held;
    const bytes = make();
    this.lru.set(offerId, { ...piece, translated: new Map(piece.translated).set(lang, bytes) });
    return bytes;
  }

  clear(): void {
    this.lru.clear();
  }
}
