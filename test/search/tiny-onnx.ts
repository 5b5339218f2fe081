/**
 * Writes tiny ONNX models by hand (the protobuf wire format of onnx.proto, only the fields used here), so the ONNX
 * embedder is tested on a real model without downloading one.
 */

class ProtoWriter {
  private readonly bytes: number[] = [];

  private varint(value: bigint | number): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }

  int(field: number, value: number | bigint): this {
    this.varint((field << 3) | 0);
    this.varint(value);
    return this;
  }

  bytesField(field: number, data: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(data.length);
    for (const b of data) this.bytes.push(b);
    return this;
  }

  string(field: number, text: string): this {
    return this.bytesField(field, new TextEncoder().encode(text));
  }

  message(field: number, inner: ProtoWriter): this {
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1,
  INT64 = 7;
const ATTR_INT = 2,
  ATTR_INTS = 7;

type Dim = number | string;

function valueInfo(name: string, elemType: number, dims: Dim[]): ProtoWriter {
  const shape = new ProtoWriter();
  for (const dim of dims)
    shape.message(1, typeof dim === 'number' ? new ProtoWriter().int(1, dim) : new ProtoWriter().string(2, dim));
  const tensorType = new ProtoWriter().int(1, elemType).message(2, shape);
  return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
}

function floatTensor(name: string, dims: number[], values: Float32Array): ProtoWriter {
  const t = new ProtoWriter();
  for (const dim of dims) t.int(1, dim);
  return t
    .int(2, FLOAT)
    .string(8, name)
    .bytesField(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

function int64Tensor(name: string, values: number[]): ProtoWriter {
  const data = BigInt64Array.from(values.map(BigInt));
  return new ProtoWriter()
    .int(1, values.length)
    .int(2, INT64)
    .string(8, name)
    .bytesField(9, new Uint8Array(data.buffer));
}

interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Array<{ name: string; int?: number; ints?: number[] }>;
}

function node(spec: NodeSpec): ProtoWriter {
  const n = new ProtoWriter();
  for (const input of spec.inputs) n.string(1, input);
  for (const output of spec.outputs) n.string(2, output);
  n.string(3, `${spec.op}_${spec.outputs[0]}`).string(4, spec.op);
  for (const attribute of spec.attributes ?? []) {
    const a = new ProtoWriter().string(1, attribute.name);
    if (attribute.int !== undefined) a.int(20, ATTR_INT).int(3, attribute.int);
    if (attribute.ints) {
      a.int(20, ATTR_INTS);
      for (const v of attribute.ints) a.int(8, v);
    }
    n.message(5, a);
  }
  return n;
}

function model(graph: {
  nodes: NodeSpec[];
  initializers: ProtoWriter[];
  inputs: ProtoWriter[];
  outputs: ProtoWriter[];
}): Uint8Array {
  const g = new ProtoWriter();
  for (const n of graph.nodes) g.message(1, node(n));
  g.string(2, 'tiny');
  for (const init of graph.initializers) g.message(5, init);
  for (const input of graph.inputs) g.message(11, input);
  for (const output of graph.outputs) g.message(12, output);
  return new ProtoWriter()
    .int(1, 8) // ir_version
    .string(2, 'archive-tests')
    .message(7, g)
    .message(8, new ProtoWriter().string(1, '').int(2, 13)) // opset 13
    .finish();
}

/**
 * Token vectors: Gather(table, input_ids) multiplied by the attention mask, output last_hidden_state
 * [batch, tokens, dims] (the shape of a BERT export, pooled by the embedder).
 */
export function tokenVectorModel(table: Float32Array, vocabSize: number, dims: number): Uint8Array {
  return model({
    nodes: [
      { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['gathered'], attributes: [{ name: 'axis', int: 0 }] },
      { op: 'Cast', inputs: ['attention_mask'], outputs: ['mask_f'], attributes: [{ name: 'to', int: FLOAT }] },
      { op: 'Unsqueeze', inputs: ['mask_f', 'last_axis'], outputs: ['mask_3d'] },
      { op: 'Mul', inputs: ['gathered', 'mask_3d'], outputs: ['last_hidden_state'] },
    ],
    initializers: [floatTensor('table', [vocabSize, dims], table), int64Tensor('last_axis', [2])],
    inputs: [
      valueInfo('input_ids', INT64, ['batch', 'tokens']),
      valueInfo('attention_mask', INT64, ['batch', 'tokens']),
    ],
    outputs: [valueInfo('last_hidden_state', FLOAT, ['batch', 'tokens', dims])],
  });
}

/** Already pooled: Gather → ReduceMean over the tokens, output sentence_embedding [batch, dims]; only input_ids. */
export function pooledModel(table: Float32Array, vocabSize: number, dims: number): Uint8Array {
  return model({
    nodes: [
      { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['gathered'], attributes: [{ name: 'axis', int: 0 }] },
      {
        op: 'ReduceMean',
        inputs: ['gathered'],
        outputs: ['sentence_embedding'],
        attributes: [
          { name: 'axes', ints: [1] },
          { name: 'keepdims', int: 0 },
        ],
      },
    ],
    initializers: [floatTensor('table', [vocabSize, dims], table)],
    inputs: [valueInfo('input_ids', INT64, ['batch', 'tokens'])],
    outputs: [valueInfo('sentence_embedding', FLOAT, ['batch', dims])],
  });
}
