// torch.softmax(x, dim=-1) over the rows of a [rows, cols] matrix, and the
// fused row pass of attention: scale, mask and softmax in one sweep.
#pragma once

#include <cstdint>
#include <limits>

namespace attention_lab {

// exp(x) for the softmax: Cody-Waite range reduction (x = n·ln2 + r) and
// Cephes' degree-6 polynomial for exp(r), 4 lanes at a time under
// WebAssembly SIMD128 and the same float operations one at a time elsewhere
// (so both builds give the same bits). NaN stays NaN, exp(-inf) = 0,
// exp(+inf) = +inf; subnormal results round once. Its error against
// std::exp is measured by tests/cpp/softmax_mask_test.cpp (and under wasm by
// tests/js/gemm-wasm.test.js, both from tests/cpp/exp_cases.h): 1 ulp at
// worst over a million inputs, the test allowing 2.
float softmaxExp(float x);
// y[i] = softmaxExp(x[i]); x and y may be the same.
void softmaxExpRow(const float* x, float* y, int64_t n);

// y = exp(x - max(x)) / sum(exp(x - max(x))), row by row: the max first (so
// large scores cannot overflow exp), the sum left to right, then one multiply
// by its reciprocal. Masked -inf entries become exactly 0; a row that is all
// -inf becomes NaN (-inf - -inf), exactly as in PyTorch. `in` and `out` may
// be the same.
void softmaxRows(const float* in, float* out, int64_t rows, int64_t cols);

// The steps between the scores and the weights of one attention row:
//   scaled  = scores / divisor                     # divide: PyTorch's scores / math.sqrt(dk)
//           = scores * factor                      # otherwise
//   masked  = scaled.masked_fill(mask == blocked, fill)   # MaskStep::Fill
//           = scaled + mask                        # MaskStep::Add
//           = scaled                               # MaskStep::None (no mask)
//   weights = torch.softmax(masked, dim=-1)
enum class MaskStep { None, Fill, Add };
struct ScoreRowSteps {
  bool divide = false;
  float divisor = 1.0f;
  float factor = 1.0f;
  MaskStep mask = MaskStep::None;
  float blockedValue = 1.0f;  // MaskStep::Fill: the mask value that means blocked
  float fill = -std::numeric_limits<float>::infinity();
  // The modern variants (variantRow below), between the scaling and the mask, and after it:
  //   capped = softcap * torch.tanh(scaled / softcap)     # cap
  //   biased = capped + alibiBias[h, i]                   # a bias row is given (ALiBi)
  //   probs  = torch.softmax(cat([masked, sinkLogit]), -1) # sink: one more column, the last
  bool cap = false;
  float softcap = 1.0f;
  bool sink = false;
  float sinkLogit = 0.0f;
};

// Where variantRow writes the stages of one row (each may be null but probs).
struct RowStages {
  float* scaled = nullptr;
  float* capped = nullptr;
  float* biased = nullptr;
  float* masked = nullptr;
  float* probs = nullptr;  // n weights, then the sink's when steps.sink
};

// One row of n scores through the steps above in one pass (plus the
// softmax's exp and normalizing sweeps over `weights`). `scaled` and `masked`
// are written when not null; `maskRow` is read unless the step is None.
// `weights` may be `scores` itself. Every value is what the separate steps
// give, element by element.
void scaleMaskSoftmaxRow(const ScoreRowSteps& steps, const float* scores, const float* maskRow, int64_t n,
                         float* scaled, float* masked, float* weights);

// The same row with the variants (softcap, ALiBi bias, sink column) on: one
// scalar pass to the masked logits (`biasRow` is read when not null), then
// the softmax's sweeps over n (+ 1 with the sink) columns. `probs` may be
// `scores` itself without the sink.
void variantRow(const ScoreRowSteps& steps, const float* scores, const float* biasRow, const float* maskRow, int64_t n,
                const RowStages& out);

// Whether a row needs variantRow (softcap, a bias row, the sink) rather than
// scaleMaskSoftmaxRow: the one place the full run and the KV cache decide it.
inline bool needsVariantRow(const ScoreRowSteps& steps, bool hasBias) { return steps.cap || steps.sink || hasBias; }

// One row through whichever of the two passes it needs (`biasRow` null: no bias):
// scaled, masked and probs as in RowStages (capped and biased only with the variants).
inline void attentionRow(const ScoreRowSteps& steps, const float* scores, const float* biasRow, const float* maskRow,
                         int64_t n, const RowStages& out) {
  if (needsVariantRow(steps, biasRow != nullptr))
    variantRow(steps, scores, biasRow, maskRow, n, out);
  else
    scaleMaskSoftmaxRow(steps, scores, maskRow, n, out.scaled, out.masked, out.probs);
}

// c · tanh(x / c) in float32, as softcap * torch.tanh(scaled / softcap); the tanh
// rounded once from double, so that the native and wasm builds agree.
float softcapOne(float x, float c);

}  // namespace attention_lab
