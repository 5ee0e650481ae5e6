/**
 * description_clean_text: the plain text of an HTML description, one paragraph per line.
 * html-to-text does the parsing and entity decoding; we only ask for no wrapping and no blank
 * lines between blocks.
 */
import { compile } from 'html-to-text';

const BLOCK = { leadingLineBreaks: 1, trailingLineBreaks: 1 };

const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'p', options: BLOCK },
    { selector: 'div', options: BLOCK },
    { selector: 'h1', options: { ...BLOCK, uppercase: false } },
    { selector: 'h2', options: { ...BLOCK, uppercase: false } },
    { selector: 'h3', options: { ...BLOCK, uppercase: false } },
    { selector: 'h4', options: { ...BLOCK, uppercase: false } },
    { selector: 'h5', options: { ...BLOCK, uppercase: false } },
    { selector: 'h6', options: { ...BLOCK, uppercase: false } },
    { selector: 'ul', options: { ...BLOCK, itemPrefix: '- ' } },
    { selector: 'ol', options: BLOCK },
    { selector: 'table', format: 'dataTable' },
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
  ],
});

export function htmlToCleanText(html: string): string {
  return convert(html)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
