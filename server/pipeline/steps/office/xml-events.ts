/** A small XML tokenizer: enough for the well-formed XML Office writes (elements, attributes, text, CDATA). */

export type XmlEvent =
  | { kind: 'open'; name: string; raw: string; selfClosing: boolean }
  | { kind: 'close'; name: string }
  | { kind: 'text'; text: string };

const TOKEN =
  /<(\/?)([A-Za-z_][\w:.-]*)([^>]*?)(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>/g;

export function* xmlEvents(xml: string): Generator<XmlEvent> {
  TOKEN.lastIndex = 0;
  let at = 0;
  for (let match = TOKEN.exec(xml); match !== null; match = TOKEN.exec(xml)) {
    if (match.index > at) yield { kind: 'text', text: decodeEntities(xml.slice(at, match.index)) };
    at = TOKEN.lastIndex;
    const [, slash, name, raw, selfClose, cdata] = match;
    if (cdata !== undefined) yield { kind: 'text', text: cdata };
    else if (name === undefined) continue;
    else if (slash) yield { kind: 'close', name };
    else yield { kind: 'open', name, raw: raw ?? '', selfClosing: selfClose === '/' };
  }
  if (at < xml.length) yield { kind: 'text', text: decodeEntities(xml.slice(at)) };
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body] ?? whole;
  });
}

export function attributes(raw: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of raw.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    map.set(match[1]!, decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return map;
}

export const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** Skips whole subtrees: returns true while inside one (call for every event, in order). */
export class Skipper {
  private depth = 0;
  private readonly names: ReadonlySet<string>;

  constructor(names: readonly string[]) {
    this.names = new Set(names);
  }

  skip(event: XmlEvent): boolean {
    if (this.depth > 0) {
      if (event.kind === 'open' && !event.selfClosing) this.depth++;
      else if (event.kind === 'close') this.depth--;
      return true;
    }
    if (event.kind === 'open' && this.names.has(event.name)) {
      if (!event.selfClosing) this.depth = 1;
      return true;
    }
    return false;
  }
}
