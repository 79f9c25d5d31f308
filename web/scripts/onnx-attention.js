// The benchmark's attention as an ONNX model (ModelProto bytes), for
// onnxruntime-web in npm run bench. A minimal protobuf writer covers the few
// ONNX fields the graph needs (field numbers from onnx/onnx.proto), so no
// Python or ONNX package is involved.
//
// B 1, float32, y = x·W + b with W [D, D] (the engine's convention):
//   qkv = X @ [W_Q | W_K | W_V] + [b_Q | b_K | b_V]          # [1, S, 3D], one MatMul + Add
//   q, k, v = qkv.split(D, dim=-1)
//   q = q.view(1, S, H, dk).transpose(1, 2)                   # [1, H, S, dk]; k as [1, H, dk, S]
//   weights = softmax(q @ k / sqrt(dk), dim=-1)               # [1, H, S, S]; no mask, no dropout
//   concat = (weights @ v).transpose(1, 2).reshape(1, S, D)
//   output = concat @ W_O + b_O

// ---- protobuf wire format ------------------------------------------------
// A message is a list of encoded fields; each helper returns the bytes of one field.
const VARINT = 0;
const LENGTH_DELIMITED = 2;

function varint(value) {
  let n = BigInt.asUintN(64, BigInt(value));
  const bytes = [];
  do {
    const low = Number(n & 0x7fn);
    n >>= 7n;
    bytes.push(n ? low | 0x80 : low);
  } while (n);
  return Uint8Array.from(bytes);
}

const concatBytes = (parts) => {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};

const key = (field, wireType) => varint((field << 3) | wireType);
const intField = (field, value) => concatBytes([key(field, VARINT), varint(value)]);
const bytesField = (field, bytes) => concatBytes([key(field, LENGTH_DELIMITED), varint(bytes.length), bytes]);
const stringField = (field, text) => bytesField(field, new TextEncoder().encode(text));
const message = (field, parts) => bytesField(field, concatBytes(parts));

// ---- ONNX messages ---------------------------------------------------------
const FLOAT = 1; // TensorProto.DataType
const INT64 = 7;
const ATTRIBUTE_INT = 2; // AttributeProto.AttributeType
const ATTRIBUTE_INTS = 7;

// TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian).
function tensor(field, name, dims, values) {
  const isInt = values instanceof BigInt64Array;
  return message(field, [
    ...dims.map((d) => intField(1, d)),
    intField(2, isInt ? INT64 : FLOAT),
    stringField(8, name),
    bytesField(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength)),
  ]);
}

// AttributeProto: name 1, i 3, ints 8, type 20.
function attribute(name, value) {
  const list = Array.isArray(value);
  return message(5, [
    stringField(1, name),
    ...(list ? value.map((v) => intField(8, v)) : [intField(3, value)]),
    intField(20, list ? ATTRIBUTE_INTS : ATTRIBUTE_INT),
  ]);
}

// NodeProto: input 1, output 2, name 3, op_type 4, attribute 5.
function node(opType, inputs, outputs, attributes = {}) {
  return message(1, [
    ...inputs.map((name) => stringField(1, name)),
    ...outputs.map((name) => stringField(2, name)),
    stringField(3, outputs[0]),
    stringField(4, opType),
    ...Object.entries(attributes).map(([name, value]) => attribute(name, value)),
  ]);
}

// ValueInfoProto { name 1, type 2: TypeProto { tensor_type 1: { elem_type 1, shape 2: { dim 1: { dim_value 1 } } } } }
function floatValueInfo(field, name, dims) {
  const shape = message(
    2,
    dims.map((d) => message(1, [intField(1, d)])),
  );
  return message(field, [stringField(1, name), message(2, [message(1, [intField(1, FLOAT), shape])])]);
}

/**
 * ONNX bytes of the attention above. `weights`: Float32Arrays W_Q, W_K, W_V,
 * W_O [D·D] row-major (x·W), b_Q, b_K, b_V, b_O [D] (absent ones are zero).
 * Graph input "X" [1, S, D], output "output" [1, S, D].
 */
export function attentionModel({ S, D, H }, weights) {
  const dk = D / H;
  const bias = (name) => weights[name] ?? new Float32Array(D);
  // [W_Q | W_K | W_V]: [D, 3D], row r is W_Q[r] | W_K[r] | W_V[r]
  const wQkv = new Float32Array(D * 3 * D);
  for (let r = 0; r < D; r++)
    ['W_Q', 'W_K', 'W_V'].forEach((name, part) =>
      wQkv.set(weights[name].subarray(r * D, (r + 1) * D), r * 3 * D + part * D),
    );
  const bQkv = new Float32Array(3 * D);
  ['b_Q', 'b_K', 'b_V'].forEach((name, part) => bQkv.set(bias(name), part * D));
  const int64s = (values) => BigInt64Array.from(values.map(BigInt));

  const initializers = [
    tensor(5, 'W_qkv', [D, 3 * D], wQkv),
    tensor(5, 'b_qkv', [3 * D], bQkv),
    tensor(5, 'W_O', [D, D], weights.W_O),
    tensor(5, 'b_O', [D], bias('b_O')),
    tensor(5, 'split', [3], int64s([D, D, D])),
    tensor(5, 'heads_shape', [4], int64s([1, S, H, dk])),
    tensor(5, 'merged_shape', [3], int64s([1, S, D])),
    tensor(5, 'sqrt_dk', [], Float32Array.of(Math.fround(Math.sqrt(dk)))),
  ];
  const nodes = [
    node('MatMul', ['X', 'W_qkv'], ['qkv_product']),
    node('Add', ['qkv_product', 'b_qkv'], ['qkv']),
    node('Split', ['qkv', 'split'], ['Q', 'K', 'V'], { axis: 2 }),
    node('Reshape', ['Q', 'heads_shape'], ['q_heads']),
    node('Reshape', ['K', 'heads_shape'], ['k_heads']),
    node('Reshape', ['V', 'heads_shape'], ['v_heads']),
    node('Transpose', ['q_heads'], ['q'], { perm: [0, 2, 1, 3] }), // [1, H, S, dk]
    node('Transpose', ['k_heads'], ['k_t'], { perm: [0, 2, 3, 1] }), // [1, H, dk, S]
    node('Transpose', ['v_heads'], ['v'], { perm: [0, 2, 1, 3] }), // [1, H, S, dk]
    node('MatMul', ['q', 'k_t'], ['scores']), // [1, H, S, S]
    node('Div', ['scores', 'sqrt_dk'], ['scaled']),
    node('Softmax', ['scaled'], ['weights'], { axis: -1 }),
    node('MatMul', ['weights', 'v'], ['context']), // [1, H, S, dk]
    node('Transpose', ['context'], ['context_t'], { perm: [0, 2, 1, 3] }), // [1, S, H, dk]
    node('Reshape', ['context_t', 'merged_shape'], ['concat']),
    node('MatMul', ['concat', 'W_O'], ['output_product']),
    node('Add', ['output_product', 'b_O'], ['output']),
  ];
  const graph = message(7, [
    ...nodes,
    stringField(2, 'attention'),
    ...initializers,
    floatValueInfo(11, 'X', [1, S, D]),
    floatValueInfo(12, 'output', [1, S, D]),
  ]);
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 { version 2 }
  return concatBytes([intField(1, 8), stringField(2, 'attention-lab bench'), graph, message(8, [intField(2, 17)])]);
}
