import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import { tidy, type Extracted } from './extracted.ts';

// PPT: text atoms of the "PowerPoint Document" stream (MS-PPT), read with SheetJS's compound file reader (no
// maintained library reads PPT).

interface CfbEntry {
  name: string;
  content?: Uint8Array | number[];
}
interface CfbContainer {
  FileIndex: CfbEntry[];
}
interface CfbApi {
  read(data: Uint8Array, options: { type: 'buffer' }): CfbContainer;
}

const RT = {
  document: 0x03e8,
  slide: 0x03ee,
  notes: 0x03f0,
  slidePersist: 0x03f3,
  mainMaster: 0x03f8,
  handout: 0x0fc9,
  slideListWithText: 0x0ff0,
  textChars: 0x0fa0,
  textBytes: 0x0fa8,
  userEdit: 0x0ff5,
  persistDirectory: 0x1772,
} as const;
const MAX_RECORD_DEPTH = 32;

interface PptRecord {
  type: number;
  instance: number;
  isContainer: boolean;
  body: number;
  end: number;
}

class PptStream {
  readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getUint32(at, true) : 0;
  }

  record(at: number): PptRecord | null {
    if (at < 0 || at + 8 > this.bytes.length) return null;
    const verInstance = this.view.getUint16(at, true);
    const end = at + 8 + this.view.getUint32(at + 4, true);
    if (end > this.bytes.length) return null;
    return {
      type: this.view.getUint16(at + 2, true),
      instance: verInstance >> 4,
      isContainer: (verInstance & 0xf) === 0xf,
      body: at + 8,
      end,
    };
  }

  *children(parent: PptRecord): Generator<PptRecord> {
    for (let at = parent.body; at < parent.end;) {
      const child = this.record(at);
      if (!child || child.end > parent.end) return;
      yield child;
      at = child.end;
    }
  }

  text(record: PptRecord): string | null {
    const body = this.bytes.subarray(record.body, record.end);
    let text: string;
    if (record.type === RT.textChars) text = new TextDecoder('utf-16le').decode(body);
    else if (record.type === RT.textBytes) text = new TextDecoder('latin1').decode(body);
    else return null;
    // \r ends a paragraph, \v is a line break inside one.
    return text.replace(/[\r\v]/g, '\n');
  }

  /** Text atoms under a record, in order, skipping masters, notes and handouts. */
  collect(record: PptRecord, into: string[], depth = 0): void {
    if (depth > MAX_RECORD_DEPTH) return;
    const text = this.text(record);
    if (text !== null) {
      into.push(text);
      return;
    }
    if (!record.isContainer) return;
    if (record.type === RT.mainMaster || record.type === RT.notes || record.type === RT.handout) return;
    if (record.type === RT.slideListWithText && record.instance !== 0) return;
    for (const child of this.children(record)) this.collect(child, into, depth + 1);
  }
}

/** persistId → stream offset, newest edit first (MS-PPT 2.1.2: the persist directory chain). */
function persistDirectory(
  stream: PptStream,
  currentEdit: number,
): { offsets: Map<number, number>; documentRef: number } | null {
  const offsets = new Map<number, number>();
  let documentRef = -1;
  const seen = new Set<number>();
  for (let at = currentEdit; at > 0 && !seen.has(at) && seen.size < 1000;) {
    seen.add(at);
    const edit = stream.record(at);
    if (!edit || edit.type !== RT.userEdit) return null;
    if (documentRef < 0) documentRef = stream.u32(edit.body + 16);
    const directory = stream.record(stream.u32(edit.body + 12));
    if (!directory || directory.type !== RT.persistDirectory) return null;
    for (let p = directory.body; p + 4 <= directory.end;) {
      const head = stream.u32(p);
      const first = head & 0xfffff;
      const count = head >>> 20;
      p += 4;
      for (let i = 0; i < count && p + 4 <= directory.end; i++, p += 4) {
        if (!offsets.has(first + i)) offsets.set(first + i, stream.u32(p));
      }
    }
    at = stream.u32(edit.body + 8);
  }
  return documentRef >= 0 ? { offsets, documentRef } : null;
}

/** PPT: the slides in presentation order (outline text, then each slide's own text boxes), one blank line apart. */
export async function pptText(path: string): Promise<Extracted> {
  const cfb = (XLSX.CFB as CfbApi).read(new Uint8Array(await readFile(path)), { type: 'buffer' });
  const stream = (name: string): Uint8Array | null => {
    const entry = cfb.FileIndex.find((e) => e.name.toLowerCase() === name.toLowerCase());
    return entry?.content ? Uint8Array.from(entry.content) : null;
  };
  const data = stream('PowerPoint Document');
  if (!data) throw new Error('the PowerPoint Document stream is missing');
  const ppt = new PptStream(data);
  const current = stream('Current User');
  const directory =
    current && current.length >= 20
      ? persistDirectory(ppt, new DataView(current.buffer, current.byteOffset, current.byteLength).getUint32(16, true))
      : null;
  const document = directory ? ppt.record(directory.offsets.get(directory.documentRef) ?? -1) : null;

  if (directory && document?.type === RT.document) {
    // Slides in presentation order: the outline text kept in the slide list, then the slide's own text boxes.
    const slides: Array<{ outline: string[]; persistRef: number }> = [];
    for (const child of ppt.children(document)) {
      if (child.type !== RT.slideListWithText || child.instance !== 0) continue;
      for (const item of ppt.children(child)) {
        if (item.type === RT.slidePersist) slides.push({ outline: [], persistRef: ppt.u32(item.body) });
        else slides.at(-1)?.outline.push(...[ppt.text(item)].filter((t): t is string => t !== null));
      }
    }
    const texts = slides.map((slide) => {
      const own: string[] = [];
      const record = ppt.record(directory.offsets.get(slide.persistRef) ?? -1);
      if (record?.type === RT.slide) ppt.collect(record, own);
      const unique = own.filter((t) => !slide.outline.includes(t));
      return tidy([...slide.outline, ...unique].join('\n'));
    });
    return { text: texts.filter(Boolean).join('\n\n'), pageCount: slides.length };
  }

  // No usable persist directory (damaged or unusual file): every text atom outside masters and notes, in order.
  const texts: string[] = [];
  for (let at = 0; at < data.length;) {
    const record = ppt.record(at);
    if (!record) break;
    ppt.collect(record, texts);
    at = record.end;
  }
  const unique = texts.filter((t, i) => t.trim() && texts.indexOf(t) === i);
  return { text: unique.join('\n\n'), pageCount: null };
}
