/**
 * The inner loop of vector search: one query against every stored vector, int8 × int8, summed in int32.
 * Plain JavaScript manages about 2.5 ns per multiply-add here (130 ms for 100k × 512), so the loop is WebAssembly
 * with 128-bit SIMD (16 products per step). Where SIMD is unavailable the same function runs in JavaScript.
 *
 * Source (WAT), compiled with wabt 1.0.39 (`wat2wasm --enable-simd`) into the bytes below:
 *
 * (module
 *   (memory (export "memory") 1)
 *   (func (export "dots") (param $query i32) (param $data i32) (param $n i32) (param $stride i32) (param $out i32)
 *     (local $p i32) (local $end i32) (local $q i32) (local $acc v128) (local $a v128) (local $b v128) (local $last i32)
 *     (local.set $last (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))))
 *     (block $done
 *       (loop $docs
 *         (br_if $done (i32.ge_u (local.get $out) (local.get $last)))
 *         (local.set $acc (v128.const i32x4 0 0 0 0))
 *         (local.set $p (local.get $data))
 *         (local.set $end (i32.add (local.get $data) (local.get $stride)))
 *         (local.set $q (local.get $query))
 *         (block $rowdone
 *           (loop $row
 *             (br_if $rowdone (i32.ge_u (local.get $p) (local.get $end)))
 *             (local.set $a (v128.load (local.get $p)))
 *             (local.set $b (v128.load (local.get $q)))
 *             (local.set $acc (i32x4.add (local.get $acc)
 *               (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
 *             (local.set $acc (i32x4.add (local.get $acc)
 *               (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
 *             (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *             (local.set $q (i32.add (local.get $q) (i32.const 16)))
 *             (br $row)))
 *         (i32.store (local.get $out)
 *           (i32.add
 *             (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
 *             (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
 *         (local.set $data (local.get $end))
 *         (local.set $out (i32.add (local.get $out) (i32.const 4)))
 *         (br $docs)))))
 */
const WASM_BASE64 = 'AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARkb3RzAAAKwwEBwAEDA38DewF/IAQgAkECdGohCwJAA0AgBCALTw0B'
  + '/QwAAAAAAAAAAAAAAAAAAAAAIQggASEFIAEgA2ohBiAAIQcCQANAIAUgBk8NASAF/QAEACEJIAf9AAQAIQogCCAJ/YcBIAr9hwH9ugH9rgEhCCAI'
  + 'IAn9iAEgCv2IAf26Af2uASEIIAVBEGohBSAHQRBqIQcMAAsLIAQgCP0bACAI/RsBaiAI/RsCIAj9GwNqajYCACAGIQEgBEEEaiEEDAALCws=';

/** Row length in bytes: vectors are padded with zeros to whole 16-byte SIMD steps. */
export const strideOf = (dims: number): number => Math.ceil(dims / 16) * 16;

/** The slice of the WebAssembly API used here (the project's type libraries do not declare it). */
export interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }
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
  /** int32 at out + 4i = Σ_j int8[query + j] · int8[data + i·stride + j], for i < n (all offsets in bytes of memory). */
  dots(query: number, data: number, n: number, stride: number, out: number): void;
}

export function createInt8DotKernel(options: { forceJs?: boolean } = {}): Int8DotKernel {
  const bytes = Buffer.from(WASM_BASE64, 'base64');
  if (!options.forceJs && wasm.validate(bytes)) {
    const instance = new wasm.Instance(new wasm.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    const dots = instance.exports.dots as (query: number, data: number, n: number, stride: number, out: number) => void;
    return { memory, simd: true, dots };
  }
  const memory = new wasm.Memory({ initial: 1 });
  return {
    memory, simd: false,
    dots(query, data, n, stride, out) {
      const bytes = new Int8Array(memory.buffer);
      const ints = new Int32Array(memory.buffer);
      for (let i = 0, base = data; i < n; i++, base += stride) {
        let sum = 0;
        for (let j = 0; j < stride; j++) sum += bytes[query + j]! * bytes[base + j]!;
        ints[(out >> 2) + i] = sum;
      }
    },
  };
}
