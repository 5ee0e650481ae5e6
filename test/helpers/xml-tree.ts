/**
 * Reads an XML document with saxes (a strict, non-validating XML 1.0 parser, namespaces off) into
 * a list of lines, one per element in document order: `path = text`. Comparing two such lists
 * checks element names, order and text, and a failing test shows the first element that differs.
 */
import { SaxesParser } from 'saxes';

export interface ParsedDocument {
  /** The XML declaration as saxes read it. */
  declaration: { version?: string; encoding?: string };
  /** `offer/offer_data/photos_urls/photo_url[2] = https://...`; `(empty)` for an element without text. */
  lines: string[];
  /** Leaf elements by path, with their exact text (for checks that need the raw value). */
  leaves: Map<string, string>;
}

interface OpenElement {
  path: string;
  text: string;
  childCount: number;
  childNames: Map<string, number>;
  lineIndex: number;
}

/** Parses `xml`, throwing on the first well-formedness error. */
export function parseXml(xml: string): ParsedDocument {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const declaration: ParsedDocument['declaration'] = {};
  const lines: string[] = [];
  const leaves = new Map<string, string>();
  const stack: OpenElement[] = [];
  let error: Error | undefined;

  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('xmldecl', (decl) => {
    declaration.version = decl.version;
    declaration.encoding = decl.encoding;
  });
  parser.on('cdata', () => {
    error ??= new Error('CDATA section found');
  });
  parser.on('opentag', (tag) => {
    if (Object.keys(tag.attributes).length > 0) error ??= new Error(`attributes on <${tag.name}>`);
    const parent = stack.at(-1);
    let path = tag.name;
    if (parent) {
      parent.childCount++;
      const seen = (parent.childNames.get(tag.name) ?? 0) + 1;
      parent.childNames.set(tag.name, seen);
      path = `${parent.path}/${tag.name}[${seen}]`;
    }
    lines.push('');
    stack.push({ path, text: '', childCount: 0, childNames: new Map(), lineIndex: lines.length - 1 });
  });
  parser.on('text', (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
    else if (text.trim() !== '') error ??= new Error('text outside the root element');
  });
  parser.on('closetag', () => {
    const element = stack.pop()!;
    if (element.childCount > 0) {
      // Whitespace between child elements is layout (in the golden files); anything else is mixed content.
      if (element.text.trim() !== '') error ??= new Error(`mixed content in ${element.path}`);
      lines[element.lineIndex] = `${clean(element.path)}/`;
    } else {
      lines[element.lineIndex] = `${clean(element.path)} = ${element.text === '' ? '(empty)' : JSON.stringify(element.text)}`;
      leaves.set(clean(element.path), element.text);
    }
  });

  parser.write(xml).close();
  if (error) throw error;
  return { declaration, lines, leaves };
}

/** `a/b[1]/c[1]` -> `a/b/c`; indexes are kept only where an element repeats (`photo_url[2]`). */
function clean(path: string): string {
  return path.replace(/\[1\](?=\/|$)/g, '');
}
