
import { type OfferRowDraft } from '../features/offers/index.js';/**
 * The words the import adds to search_lexemes (migration 2026_11_26_0015): every word of the
 * search vectors it writes, so that a search's last word (a prefix) can be looked up there. The
 * first batches bring most of a catalogue's words; later batches bring few or none, so the table
 * costs the import little. Words already sent by this import are remembered up to a bound; past it
 * the memory is emptied, and a word sent again is only a conflict that does nothing.
 */

/** Words remembered (a few tens of bytes each; a catalogue of 100,000 offers has about 12,000). */
const MAX_REMEMBERED = 300_000;

/**
 * A copy of a word that holds no other text: a word split out of a description may be a slice that
 * keeps the whole description alive.
 */
const ownCopy = (word: string): string => Buffer.from(word, 'latin1').toString('latin1');

export class SearchVocabulary {
  private readonly sent = new Set<string>();

  /** The words of the drafts' search vectors not sent yet by this import (undefined: none). */
  unsent(drafts: readonly OfferRowDraft[]): string[] | undefined {
    const lexemes: string[] = [];
    for (const draft of drafts) {
      for (const lexeme of draft.search_vector.lexemes) {
        if (this.sent.has(lexeme)) continue;
        const word = ownCopy(lexeme);
        this.sent.add(word);
        lexemes.push(word);
      }
    }
    if (this.sent.size > MAX_REMEMBERED) this.sent.clear();
    return lexemes.length === 0 ? undefined : lexemes;
  }
}
