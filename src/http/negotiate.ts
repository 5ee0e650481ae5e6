/** Accept negotiation for the offer operations (CONTRACT 5). Placeholder until the XML work lands. */
export type ResponseFormat = 'json' | 'xml';

export function preferredFormat(_accept: string | undefined): ResponseFormat {
  return 'json';
}
