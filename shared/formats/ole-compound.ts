/**
 * Minimal reader for OLE compound files (MS-CFB), just enough to tell .doc/.xls/.ppt apart by the
 * names of the streams in the root storage. Runtime-neutral (no Node imports) so the same code
 * serves the server (reading a file on disk) and a client pre-check (reading bytes in memory).
 *
 * The parser is a generator that yields the byte ranges it needs and is resumed with exactly those
 * bytes; a driver decides where they come from. A driver that cannot serve a range stops it, so
 * every read is bounded by the source, and every loop below is also capped and cycle-checked:
 * malformed input ends in null, never in an exception or an endless walk.
 */

export type OleFormat = 'doc' | 'xls' | 'ppt';

export interface ReadRequest {
  offset: number;
  length: number;
}

/** Yields byte ranges, is resumed with those bytes (always of the requested length). */
export type OleProbe = Generator<ReadRequest, OleFormat | null, Uint8Array>;

export const OLE_SIGNATURE: readonly number[] = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const HEADER_SIZE = 512;
const DIR_ENTRY_SIZE = 128;
const HEADER_DIFAT_ENTRIES = 109;
/** Sector ids above this are markers (free, end of chain, FAT/DIFAT sector), not locations. */
const MAX_REG_SECT = 0xfffffffa;
const NO_STREAM = 0xffffffff;
const TYPE_STREAM = 2;
const TYPE_ROOT = 5;

// Caps far above anything a real document needs; they only bound work on hostile input.
const MAX_DIR_SECTORS = 4096;
const MAX_DIFAT_SECTORS = 4096;
const MAX_ROOT_CHILDREN = 4096;
/** Safety net for the drivers, independent of the parser's own caps. */
const MAX_READS = 20_000;

/** Root-level stream names (compared case-insensitively, as CFB does) → format. */
const STREAM_FORMATS: ReadonlyMap<string, OleFormat> = new Map([
  ['worddocument', 'doc'],
  ['workbook', 'xls'],
  ['book', 'xls'], // Excel 5/95 workbooks
  ['powerpoint document', 'ppt'],
]);
/** If several appear (never in real files), the first in this order wins, deterministically. */
const PRIORITY: readonly OleFormat[] = ['doc', 'xls', 'ppt'];

export function hasOleSignature(bytes: Uint8Array): boolean {
  return bytes.length >= OLE_SIGNATURE.length && OLE_SIGNATURE.every((b, i) => bytes[i] === b);
}

function u16(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);
}

function u32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16)) +
    (bytes[offset + 3] ?? 0) * 0x1000000
  );
}

const isRegularSector = (id: number): boolean => id <= MAX_REG_SECT;

/** Directory entry name: UTF-16LE, length in bytes including the terminating NUL. */
function entryName(entry: Uint8Array): string {
  const byteLength = u16(entry, 0x40);
  if (byteLength < 2 || byteLength > 64 || byteLength % 2 !== 0) return '';
  let name = '';
  for (let i = 0; i < byteLength - 2; i += 2) name += String.fromCharCode(u16(entry, i));
  return name;
}

/** The parser. Looks only at the direct children of the root storage: embedded objects (e.g. a
 * chart's Workbook inside a .doc) live in sub-storages and must not decide the format. */
export function* probeOle(): OleProbe {
  const header = yield { offset: 0, length: HEADER_SIZE };
  if (!hasOleSignature(header) || u16(header, 0x1c) !== 0xfffe) return null;
  const sectorShift = u16(header, 0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return null; // the only sizes MS-CFB allows (v3/v4)
  const sectorSize = 2 ** sectorShift;
  const idsPerSector = sectorSize / 4;
  const entriesPerSector = sectorSize / DIR_ENTRY_SIZE;
  const firstDirSector = u32(header, 0x30);
  const firstDifatSector = u32(header, 0x44);
  if (!isRegularSector(firstDirSector)) return null;

  // Sector n starts after the header, which occupies one whole sector (512 B, or 4096 B in v4).
  function* readSector(id: number): Generator<ReadRequest, Uint8Array, Uint8Array> {
    return yield { offset: (id + 1) * sectorSize, length: sectorSize };
  }

  const difatSectors: Uint8Array[] = [];
  const seenDifat = new Set<number>();
  /** Location of the i-th FAT sector: the header's 109 DIFAT slots, then the DIFAT sector chain. */
  function* fatSectorLocation(index: number): Generator<ReadRequest, number | null, Uint8Array> {
    if (index < HEADER_DIFAT_ENTRIES) return u32(header, 0x4c + index * 4);
    const perDifatSector = idsPerSector - 1; // the last slot links to the next DIFAT sector
    const rest = index - HEADER_DIFAT_ENTRIES;
    const k = Math.floor(rest / perDifatSector);
    if (k >= MAX_DIFAT_SECTORS) return null;
    while (difatSectors.length <= k) {
      const previous = difatSectors.at(-1);
      const next = previous === undefined ? firstDifatSector : u32(previous, perDifatSector * 4);
      if (!isRegularSector(next) || seenDifat.has(next)) return null;
      seenDifat.add(next);
      difatSectors.push(yield* readSector(next));
    }
    const difat = difatSectors[k];
    return difat === undefined ? null : u32(difat, (rest % perDifatSector) * 4);
  }

  const fatSectors = new Map<number, Uint8Array>();
  function* nextInChain(id: number): Generator<ReadRequest, number | null, Uint8Array> {
    const location = yield* fatSectorLocation(Math.floor(id / idsPerSector));
    if (location === null || !isRegularSector(location)) return null;
    let fat = fatSectors.get(location);
    if (fat === undefined) {
      fat = yield* readSector(location);
      fatSectors.set(location, fat);
    }
    return u32(fat, (id % idsPerSector) * 4);
  }

  // The directory chain is followed lazily: only as far as the entries the tree walk reaches.
  const dirChain: number[] = [firstDirSector];
  const seenDir = new Set<number>(dirChain);
  const dirSectors = new Map<number, Uint8Array>();
  function* dirEntry(id: number): Generator<ReadRequest, Uint8Array | null, Uint8Array> {
    const k = Math.floor(id / entriesPerSector);
    if (k >= MAX_DIR_SECTORS) return null;
    while (dirChain.length <= k) {
      const last = dirChain.at(-1);
      if (last === undefined) return null;
      const next = yield* nextInChain(last);
      if (next === null || !isRegularSector(next) || seenDir.has(next)) return null;
      seenDir.add(next);
      dirChain.push(next);
    }
    const sectorId = dirChain[k];
    if (sectorId === undefined) return null;
    let sector = dirSectors.get(k);
    if (sector === undefined) {
      sector = yield* readSector(sectorId);
      dirSectors.set(k, sector);
    }
    const offset = (id % entriesPerSector) * DIR_ENTRY_SIZE;
    return sector.subarray(offset, offset + DIR_ENTRY_SIZE);
  }

  const root = yield* dirEntry(0);
  if (root === null || root[0x42] !== TYPE_ROOT) return null;

  // Root children form a red-black tree linked through left/right siblings; each node's own
  // child pointer leads into a sub-storage, which is deliberately not followed.
  const found = new Set<OleFormat>();
  const visited = new Set<number>();
  const pending = [u32(root, 0x4c)];
  while (pending.length > 0) {
    const id = pending.pop();
    if (id === undefined || id === NO_STREAM || visited.has(id)) continue;
    if (id > MAX_REG_SECT || visited.size >= MAX_ROOT_CHILDREN) return null;
    visited.add(id);
    const entry = yield* dirEntry(id);
    if (entry === null) return null;
    const format = STREAM_FORMATS.get(entryName(entry).toLowerCase());
    if (format !== undefined && entry[0x42] === TYPE_STREAM) found.add(format);
    pending.push(u32(entry, 0x44), u32(entry, 0x48));
  }
  return PRIORITY.find((f) => found.has(f)) ?? null;
}

/** Runs the probe over bytes in memory. 'needs-more' when it wants bytes beyond the end, i.e. the
 * bytes are (or may be) only the head of the file. */
export function probeOleBytes(bytes: Uint8Array): OleFormat | null | 'needs-more' {
  const probe = probeOle();
  let step = probe.next();
  for (let reads = 0; !step.done; reads++) {
    const { offset, length } = step.value;
    if (offset + length > bytes.length) return 'needs-more';
    if (reads >= MAX_READS) return null;
    step = probe.next(bytes.subarray(offset, offset + length));
  }
  return step.value;
}

/** Runs the probe with an async reader; `read` returns fewer bytes than asked at end of file,
 * which (truncated or corrupt file) means "not a recognisable compound file". */
export async function probeOleAsync(
  read: (offset: number, length: number) => Promise<Uint8Array>,
): Promise<OleFormat | null> {
  const probe = probeOle();
  let step = probe.next();
  for (let reads = 0; !step.done; reads++) {
    const { offset, length } = step.value;
    if (reads >= MAX_READS || !Number.isSafeInteger(offset + length)) return null;
    const bytes = await read(offset, length);
    if (bytes.length < length) return null;
    step = probe.next(bytes);
  }
  return step.value;
}
