import { createInt8DotKernel, TILE, type Int8DotKernel } from './embedders/int8-dot.ts';
import { TopK } from './top-k.ts';

export interface VectorHit {
  id: string;
  similarity: number;
  /** The documents rowid, when the cache was given it (EmbeddingIndex always does). */
  rowid?: number;
}

/**
 * The in-memory copy of the vectors that search scans: int8 per dimension with one float scale per vector
 * (512 dims → 516 bytes a document, 52 MB for 100k, a quarter of float32; the rounding moves a cosine by < 0.01),
 * plus the document's space so inaccessible documents are never returned. Vectors live in the memory of a
 * WebAssembly SIMD kernel (int8-dot.ts) that scores all of them in one call, stored in tiles, dimension pair by
 * dimension pair, so that a sparse query reads only its own dimensions.
 */
export class VectorCache {
  readonly dims: number;
  private readonly kernel: Int8DotKernel;
  private readonly pairs: number;
  private readonly tileBytes: number;
  /** Byte offsets in the kernel's memory: the query's pair offsets and values (int32 each), the tiles, then one int32 score per row. */
  private readonly offsetsAt = 0;
  private readonly valuesAt: number;
  private readonly dataAt: number;
  private capacity = 0;
  private scales = new Float32Array(0);
  private spaces = new Int32Array(0);
  private rowids = new Float64Array(0);
  private ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly spaceIds: string[] = [];
  private readonly spaceIndex = new Map<string, number>();
  private readonly scratch: Int8Array;

  constructor(dims: number, options: { capacity?: number; kernel?: Int8DotKernel } = {}) {
    this.dims = dims;
    this.kernel = options.kernel ?? createInt8DotKernel();
    this.pairs = Math.ceil(dims / 2);
    this.tileBytes = this.pairs * TILE * 2;
    this.valuesAt = this.pairs * 4;
    this.dataAt = Math.ceil((this.pairs * 8) / 64) * 64;
    this.scratch = new Int8Array(this.pairs * 2);
    this.reserve(options.capacity ?? TILE);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Bytes held for vectors, scores and per-row data (ids and the id map not counted). */
  get memoryBytes(): number {
    return (
      this.kernel.memory.buffer.byteLength + this.scales.byteLength + this.spaces.byteLength + this.rowids.byteLength
    );
  }

  upsert(id: string, spaceId: string, vector: Float32Array, rowid?: number): void {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot >= this.capacity) this.reserve(this.capacity * 2);
      this.ids.push(id);
      this.slotOf.set(id, slot);
    }
    const q = this.scratch;
    this.scales[slot] = this.quantize(vector, q);
    const memory = new Int8Array(this.kernel.memory.buffer);
    for (let p = 0, at = this.rowAt(slot); p < this.pairs; p++, at += TILE * 2) {
      memory[at] = q[2 * p]!;
      memory[at + 1] = q[2 * p + 1]!;
    }
    this.spaces[slot] = this.internSpace(spaceId);
    this.rowids[slot] = rowid ?? -1;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      const lastId = this.ids[last]!;
      const memory = new Int8Array(this.kernel.memory.buffer);
      for (
        let p = 0, to = this.rowAt(slot), from = this.rowAt(last);
        p < this.pairs;
        p++, to += TILE * 2, from += TILE * 2
      ) {
        memory[to] = memory[from]!;
        memory[to + 1] = memory[from + 1]!;
      }
      this.scales[slot] = this.scales[last]!;
      this.spaces[slot] = this.spaces[last]!;
      this.rowids[slot] = this.rowids[last]!;
      this.ids[slot] = lastId;
      this.slotOf.set(lastId, slot);
    }
    this.ids.pop();
    this.slotOf.delete(id);
  }

  /** Brute-force cosine over the vectors in the given spaces (null = all), best first: at most `max`, each ≥ minSimilarity. */
  search(query: Float32Array, spaces: ReadonlySet<string> | null, minSimilarity: number, max: number): VectorHit[] {
    const n = this.ids.length;
    if (n === 0 || max <= 0) return [];
    const allowed = new Uint8Array(this.spaceIds.length);
    this.spaceIds.forEach((spaceId, i) => {
      allowed[i] = spaces === null || spaces.has(spaceId) ? 1 : 0;
    });
    if (!allowed.includes(1)) return [];
    const q = this.scratch;
    const queryScale = this.quantize(query, q);
    const offsets = new Int32Array(this.kernel.memory.buffer, this.offsetsAt, this.pairs);
    const values = new Int32Array(this.kernel.memory.buffer, this.valuesAt, this.pairs);
    let count = 0;
    for (let p = 0; p < this.pairs; p++) {
      const lo = q[2 * p]!,
        hi = q[2 * p + 1]!;
      if (lo === 0 && hi === 0) continue;
      offsets[count] = p * TILE * 2;
      values[count++] = (hi << 16) | (lo & 0xffff);
    }
    const outAt = this.dataAt + (this.capacity / TILE) * this.tileBytes;
    this.kernel.dots(
      this.offsetsAt,
      this.valuesAt,
      count,
      this.dataAt,
      Math.ceil(n / TILE),
      this.tileBytes,
      outAt,
      TILE,
    );
    const dots = new Int32Array(this.kernel.memory.buffer, outAt, n);
    const heap = new TopK(max);
    const scales = this.scales,
      owners = this.spaces;
    const everySpace = !allowed.includes(0);
    // Below the heap's least score nothing gets in: tested here, the push call is skipped for most rows.
    let floor = minSimilarity;
    for (let slot = 0; slot < n; slot++) {
      const similarity = dots[slot]! * queryScale * scales[slot]!;
      if (similarity < floor || (!everySpace && allowed[owners[slot]!] === 0)) continue;
      heap.push(slot, similarity);
      if (heap.full) floor = Math.max(minSimilarity, heap.least);
    }
    return heap.sorted().map(({ slot, score }) => {
      const rowid = this.rowids[slot]!;
      return rowid >= 0
        ? { id: this.ids[slot]!, similarity: score, rowid }
        : { id: this.ids[slot]!, similarity: score };
    });
  }

  /** Byte offset of a vector's first dimension in the kernel's memory (dimension d is (d >> 1) runs further, + (d & 1)). */
  private rowAt(slot: number): number {
    return this.dataAt + Math.floor(slot / TILE) * this.tileBytes + (slot % TILE) * 2;
  }

  /** Writes the vector as int8 into `out` (zeros past its dimensions); returns the scale back to floats. */
  private quantize(vector: Float32Array, out: Int8Array): number {
    let maxAbs = 0;
    for (let i = 0; i < this.dims; i++) maxAbs = Math.max(maxAbs, Math.abs(vector[i]!));
    const scale = maxAbs > 0 ? maxAbs / 127 : 1;
    for (let i = 0; i < this.dims; i++) out[i] = Math.round(vector[i]! / scale);
    out.fill(0, this.dims);
    return scale;
  }

  private internSpace(spaceId: string): number {
    let index = this.spaceIndex.get(spaceId);
    if (index === undefined) {
      index = this.spaceIds.length;
      this.spaceIds.push(spaceId);
      this.spaceIndex.set(spaceId, index);
    }
    return index;
  }

  /** Room for `capacity` rows and their scores; the tiles stay where they are, the score area moves behind them. */
  private reserve(capacity: number): void {
    capacity = Math.ceil(capacity / TILE) * TILE;
    const bytes = this.dataAt + (capacity / TILE) * this.tileBytes + capacity * 4;
    const memory = this.kernel.memory;
    const pages = Math.ceil(bytes / 65_536) - memory.buffer.byteLength / 65_536;
    if (pages > 0) memory.grow(pages);
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, Math.min(this.scales.length, capacity)));
    this.scales = scales;
    const spaces = new Int32Array(capacity);
    spaces.set(this.spaces.subarray(0, Math.min(this.spaces.length, capacity)));
    this.spaces = spaces;
    const rowids = new Float64Array(capacity);
    rowids.set(this.rowids.subarray(0, Math.min(this.rowids.length, capacity)));
    this.rowids = rowids;
    this.capacity = capacity;
  }
}
