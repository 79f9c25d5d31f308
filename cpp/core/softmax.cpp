#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attention_lab {

void softmaxRows(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * cols;
    float* y = out + r * cols;
    float rowMax = -std::numeric_limits<float>::infinity();
    for (int64_t c = 0; c < cols; ++c) rowMax = std::max(rowMax, x[c]);
    float sum = 0.0f;
    for (int64_t c = 0; c < cols; ++c) sum += (y[c] = std::exp(x[c] - rowMax));
    const float inverse = 1.0f / sum;
    for (int64_t c = 0; c < cols; ++c) y[c] *= inverse;
  }
}

}  // namespace attention_lab
