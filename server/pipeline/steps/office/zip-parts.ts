import { openPromise, type Entry, type ZipFile } from 'yauzl';
import type { Extracted } from './extracted.ts';
import { attributes, localName, xmlEvents } from './xml-events.ts';

/** Bounds on decompression (zip bombs): per XML part and in total. */
const MAX_PART_BYTES = 200 * 1024 * 1024;
const MAX_TOTAL_BYTES = 400 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 20_000;

/** The parts of a zip-based Office document (OOXML or ODF), read on demand within the bounds above. */
export class ZipParts {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private readonly zip: ZipFile;

  private constructor(zip: ZipFile) {
    this.zip = zip;
  }

  static async open(path: string): Promise<ZipParts> {
    const zip = await openPromise(path, { lazyEntries: true, autoClose: false });
    zip.on('error', () => {});
    const parts = new ZipParts(zip);
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        // OPC part names are case-insensitive.
        parts.entries.set(entry.fileName.toLowerCase(), entry);
        if (parts.entries.size > MAX_ZIP_ENTRIES) reject(new Error('too many zip entries'));
        else zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', reject);
      zip.readEntry();
    }).catch((error: unknown) => {
      zip.close();
      throw error;
    });
    return parts;
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  /** A part as UTF-8 text; null when absent. */
  async text(name: string): Promise<string | null> {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return null;
    if (entry.isEncrypted()) throw new Error('the document is encrypted');
    if (entry.uncompressedSize > MAX_PART_BYTES || this.total + entry.uncompressedSize > MAX_TOTAL_BYTES) {
      throw new Error('a part of the document is too large');
    }
    this.total += entry.uncompressedSize;
    // yauzl checks the real size against the declared one, so the caps above hold.
    const stream = await this.zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A part that the format cannot do without. */
  async required(name: string): Promise<string> {
    const text = await this.text(name);
    if (text === null) throw new Error(`${name} is missing`);
    return text;
  }

  close(): void {
    this.zip.close();
  }
}

/** Opens the zip, reads it with `read` and closes it whatever happens. */
export async function withZip(path: string, read: (parts: ZipParts) => Promise<Extracted>): Promise<Extracted> {
  const parts = await ZipParts.open(path);
  try {
    return await read(parts);
  } finally {
    parts.close();
  }
}

export interface Relationship {
  target: string;
  type: string;
}

/** Relationship id → part name, from a .rels part (targets resolved against the source part's folder). */
export async function relationships(parts: ZipParts, sourcePart: string): Promise<Map<string, Relationship>> {
  const folder = sourcePart.includes('/') ? sourcePart.slice(0, sourcePart.lastIndexOf('/') + 1) : '';
  const relsName = `${folder}_rels/${sourcePart.slice(folder.length)}.rels`;
  const xml = await parts.text(relsName);
  const map = new Map<string, Relationship>();
  if (xml === null) return map;
  for (const event of xmlEvents(xml)) {
    if (event.kind !== 'open' || localName(event.name) !== 'Relationship') continue;
    const attrs = attributes(event.raw);
    const id = attrs.get('Id');
    const target = attrs.get('Target');
    if (!id || !target || attrs.get('TargetMode') === 'External') continue;
    map.set(id, { target: resolvePartName(folder, target), type: attrs.get('Type') ?? '' });
  }
  return map;
}

/** The relationship an element points to with its r:id (or an id attribute under another relationships prefix). */
export function referencedRelationship(
  rels: ReadonlyMap<string, Relationship>,
  attrs: ReadonlyMap<string, string>,
): Relationship | undefined {
  return rels.get(attrs.get('r:id') ?? [...attrs.entries()].find(([k]) => k.endsWith(':id'))?.[1] ?? '');
}

function resolvePartName(folder: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}
