// torch.softmax(x, dim=-1) over the rows of a [rows, cols] matrix.
#pragma once

#include <cstdint>

namespace attention_lab {

// y = exp(x - max(x)) / sum(exp(x - max(x))), row by row, as PyTorch's CPU
// kernel computes it (max first, so large scores cannot overflow exp).
// Masked -inf entries become exactly 0; a row that is all -inf becomes NaN
// (-inf - -inf), exactly as in PyTorch. `in` and `out` may be the same.
void softmaxRows(const float* in, float* out, int64_t rows, int64_t cols);

}  // namespace attention_lab
