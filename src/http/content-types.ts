/** The Content-Type values the service sends its answers with (always with the charset). */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';
