/**
 * The inner loop of vector search: one query against every stored vector, int8 × int8, summed in int32.
 * WebAssembly with 128-bit SIMD, since a scalar loop in JavaScript is far too slow for a search over every stored
 * vector (docs/benchmarks.md); where SIMD is unavailable the same function runs in JavaScript.
 *
 * Layout: tiles of TILE (4096) vectors. Inside a tile the dimensions go in pairs (0 and 1, 2 and 3, …); a pair is
 * one run of TILE × 2 bytes holding, vector after vector, that vector's two bytes. One SIMD load is then 8 vectors ×
 * 2 dimensions, and i32x4.dot_i16x8_s against (q0, q1, q0, q1, …) gives 4 vectors' partial sums at once.
 * The query is a list of its pairs with a non-zero component, and only those runs are read: a hashed-embedder
 * query has 20–90 non-zero dimensions of 512, so a search reads a small fraction of the stored bytes. A dense query
 * (a neural model's) lists every pair and streams everything once, somewhat slower than a row-by-row loop since the
 * sums go through memory (once per four pairs) instead of staying in registers. The sums are the same integers either
 * way.
 *
 * Source (WAT), compiled with wabt 1.0.39 (its npm package's parseWat, SIMD enabled) into the bytes below:
 *
 * (module
 *   (memory (export "memory") 1)
 *   (func (export "dots") (param $offs i32) (param $vals i32) (param $count i32) (param $data i32) (param $tiles i32) (param $tileBytes i32) (param $out i32) (param $rows i32)
 *     (local $k i32) (local $end i32) (local $end4 i32) (local $j i32) (local $runBytes i32) (local $o i32) (local $accEnd i32)
 *     (local $c0 i32) (local $c1 i32) (local $c2 i32) (local $c3 i32)
 *     (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
 *     (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
 *     (local.set $end (i32.shl (local.get $count) (i32.const 2)))
 *     (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
 *     (local.set $runBytes (i32.shl (local.get $rows) (i32.const 1)))
 *     (block $done
 *       (loop $eachTile
 *         (br_if $done (i32.eqz (local.get $tiles)))
 *         (local.set $accEnd (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
 *         (local.set $o (local.get $out))
 *         (block $zeroed
 *           (loop $zero
 *             (br_if $zeroed (i32.ge_u (local.get $o) (local.get $accEnd)))
 *             (v128.store (local.get $o) (v128.const i32x4 0 0 0 0))
 *             (local.set $o (i32.add (local.get $o) (i32.const 16)))
 *             (br $zero)))
 *         (local.set $k (i32.const 0))
 *         ;; Four pairs at a time: four runs stream side by side and the sums are loaded and stored once for them.
 *         (block $quadsDone
 *           (loop $eachQuad
 *             (br_if $quadsDone (i32.ge_u (local.get $k) (local.get $end4)))
 *             (local.set $c0 (i32.add (local.get $data) (i32.load offset=0 (i32.add (local.get $offs) (local.get $k)))))
 *             (local.set $c1 (i32.add (local.get $data) (i32.load offset=4 (i32.add (local.get $offs) (local.get $k)))))
 *             (local.set $c2 (i32.add (local.get $data) (i32.load offset=8 (i32.add (local.get $offs) (local.get $k)))))
 *             (local.set $c3 (i32.add (local.get $data) (i32.load offset=12 (i32.add (local.get $offs) (local.get $k)))))
 *             (local.set $q0 (i32x4.splat (i32.load offset=0 (i32.add (local.get $vals) (local.get $k)))))
 *             (local.set $q1 (i32x4.splat (i32.load offset=4 (i32.add (local.get $vals) (local.get $k)))))
 *             (local.set $q2 (i32x4.splat (i32.load offset=8 (i32.add (local.get $vals) (local.get $k)))))
 *             (local.set $q3 (i32x4.splat (i32.load offset=12 (i32.add (local.get $vals) (local.get $k)))))
 *             (local.set $j (i32.const 0))
 *             (local.set $o (local.get $out))
 *             (block $rowsDone
 *               (loop $eachRows
 *                 (br_if $rowsDone (i32.ge_u (local.get $j) (local.get $runBytes)))
 *                 (local.set $v0 (v128.load (i32.add (local.get $c0) (local.get $j))))
 *                 (local.set $v1 (v128.load (i32.add (local.get $c1) (local.get $j))))
 *                 (local.set $v2 (v128.load (i32.add (local.get $c2) (local.get $j))))
 *                 (local.set $v3 (v128.load (i32.add (local.get $c3) (local.get $j))))
 *                 (v128.store offset=0 (local.get $o) (i32x4.add (v128.load offset=0 (local.get $o))
 *                   (i32x4.add
 *                     (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v0)) (local.get $q0))
 *                                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v1)) (local.get $q1)))
 *                     (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v2)) (local.get $q2))
 *                                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v3)) (local.get $q3))))))
 *                 (v128.store offset=16 (local.get $o) (i32x4.add (v128.load offset=16 (local.get $o))
 *                   (i32x4.add
 *                     (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v0)) (local.get $q0))
 *                                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v1)) (local.get $q1)))
 *                     (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v2)) (local.get $q2))
 *                                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v3)) (local.get $q3))))))
 *                 (local.set $j (i32.add (local.get $j) (i32.const 16)))
 *                 (local.set $o (i32.add (local.get $o) (i32.const 32)))
 *                 (br $eachRows)))
 *             (local.set $k (i32.add (local.get $k) (i32.const 16)))
 *             (br $eachQuad)))
 *         ;; The remaining 0-3 pairs one at a time.
 *         (block $pairsDone
 *           (loop $eachPair
 *             (br_if $pairsDone (i32.ge_u (local.get $k) (local.get $end)))
 *             (local.set $c0 (i32.add (local.get $data) (i32.load (i32.add (local.get $offs) (local.get $k)))))
 *             (local.set $q0 (i32x4.splat (i32.load (i32.add (local.get $vals) (local.get $k)))))
 *             (local.set $j (i32.const 0))
 *             (local.set $o (local.get $out))
 *             (block $rowsDone1
 *               (loop $eachRows1
 *                 (br_if $rowsDone1 (i32.ge_u (local.get $j) (local.get $runBytes)))
 *                 (local.set $v0 (v128.load (i32.add (local.get $c0) (local.get $j))))
 *                 (v128.store offset=0 (local.get $o) (i32x4.add (v128.load offset=0 (local.get $o))
 *                   (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v0)) (local.get $q0))))
 *                 (v128.store offset=16 (local.get $o) (i32x4.add (v128.load offset=16 (local.get $o))
 *                   (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v0)) (local.get $q0))))
 *                 (local.set $j (i32.add (local.get $j) (i32.const 16)))
 *                 (local.set $o (i32.add (local.get $o) (i32.const 32)))
 *                 (br $eachRows1)))
 *             (local.set $k (i32.add (local.get $k) (i32.const 4)))
 *             (br $eachPair)))
 *         (local.set $out (local.get $accEnd))
 *         (local.set $data (i32.add (local.get $data) (local.get $tileBytes)))
 *         (local.set $tiles (i32.sub (local.get $tiles) (i32.const 1)))
 *         (br $eachTile)))))
 */
const WASM_BASE64 =
  'AGFzbQEAAAABDAFgCH9/f39/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARkb3RzAAAK2QQB1gQCC38IeyACQQJ0IQkgCUFwcSEKIAdBAXQhDAJAA0Ag' +
  'BEUNASAGIAdBAnRqIQ4gBiENAkADQCANIA5PDQEgDf0MAAAAAAAAAAAAAAAAAAAAAP0LBAAgDUEQaiENDAALC0EAIQgCQANAIAggCk8NASADIAAgCGoo' +
  'AgBqIQ8gAyAAIAhqKAIEaiEQIAMgACAIaigCCGohESADIAAgCGooAgxqIRIgASAIaigCAP0RIRMgASAIaigCBP0RIRQgASAIaigCCP0RIRUgASAIaigC' +
  'DP0RIRZBACELIAYhDQJAA0AgCyAMTw0BIA8gC2r9AAQAIRcgECALav0ABAAhGCARIAtq/QAEACEZIBIgC2r9AAQAIRogDSAN/QAEACAX/YcBIBP9ugEg' +
  'GP2HASAU/boB/a4BIBn9hwEgFf26ASAa/YcBIBb9ugH9rgH9rgH9rgH9CwQAIA0gDf0ABBAgF/2IASAT/boBIBj9iAEgFP26Af2uASAZ/YgBIBX9ugEg' +
  'Gv2IASAW/boB/a4B/a4B/a4B/QsEECALQRBqIQsgDUEgaiENDAALCyAIQRBqIQgMAAsLAkADQCAIIAlPDQEgAyAAIAhqKAIAaiEPIAEgCGooAgD9ESET' +
  'QQAhCyAGIQ0CQANAIAsgDE8NASAPIAtq/QAEACEXIA0gDf0ABAAgF/2HASAT/boB/a4B/QsEACANIA39AAQQIBf9iAEgE/26Af2uAf0LBBAgC0EQaiEL' +
  'IA1BIGohDQwACwsgCEEEaiEIDAALCyAOIQYgAyAFaiEDIARBAWshBAwACwsL';

/** Vectors per tile: the tile's int32 sums (16 KB) stay in the first-level cache while its runs stream past. */
export const TILE = 4096;

/** The slice of the WebAssembly API used here (the project's type libraries do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export interface Int8DotKernel {
  readonly memory: WasmMemory;
  readonly simd: boolean;
  /**
   * For each of `tiles` tiles (the first at byte `data`, each `tileBytes` long) the `rows` int32 sums
   * Σ_k (int8[run_k + 2r] · lo_k + int8[run_k + 2r + 1] · hi_k) for r < rows, written one tile after the other from
   * byte `out`, where run_k = tile + offsets[k]. offsets and values are int32 arrays of `count` entries at bytes
   * `offsets` and `values`; a value packs the query's two int8 components of the pair as int16s (lo in the low half).
   */
  dots(
    offsets: number,
    values: number,
    count: number,
    data: number,
    tiles: number,
    tileBytes: number,
    out: number,
    rows: number,
  ): void;
}

export function createInt8DotKernel(options: { forceJs?: boolean } = {}): Int8DotKernel {
  const bytes = Buffer.from(WASM_BASE64, 'base64');
  if (!options.forceJs && wasm.validate(bytes)) {
    const instance = new wasm.Instance(new wasm.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    const dots = instance.exports.dots as Int8DotKernel['dots'];
    return { memory, simd: true, dots };
  }
  const memory = new wasm.Memory({ initial: 1 });
  return {
    memory,
    simd: false,
    dots(offsets, values, count, data, tiles, tileBytes, out, rows) {
      const int8 = new Int8Array(memory.buffer);
      const int32 = new Int32Array(memory.buffer);
      for (let t = 0, base = data, sums = out >> 2; t < tiles; t++, base += tileBytes, sums += rows) {
        int32.fill(0, sums, sums + rows);
        for (let k = 0; k < count; k++) {
          const run = base + int32[(offsets >> 2) + k]!;
          const packed = int32[(values >> 2) + k]!;
          const lo = (packed << 16) >> 16,
            hi = packed >> 16;
          for (let r = 0; r < rows; r++)
            int32[sums + r] = int32[sums + r]! + int8[run + 2 * r]! * lo + int8[run + 2 * r + 1]! * hi;
        }
      }
    },
  };
}
