// A reader for safetensors files of float16 tensors (the tiny model's
// weights, web/api/tiny/step-NNNN.safetensors). The layout:
//
//   bytes [0, 8)        N, the header's length, a little-endian uint64
//   bytes [8, 8 + N)    a JSON object {name: {"dtype": "F16", "shape": [...],
//                       "data_offsets": [start, end]}, "__metadata__": {...}}
//   bytes [8 + N, ...)  the data; a tensor's bytes are [start, end) of it,
//                       little-endian float16, row-major
//
// Every problem is an error on the field "weights file" that says what is
// wrong (too short, not JSON, a tensor missing, of another dtype or shape,
// or lying outside the data), never a read out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "status.h"

namespace attention_lab {

// The field every error of a weights file names.
inline constexpr const char* kWeightsFileField = "weights file";

// The tensor a reader wants: its name and shape (dtype F16).
struct WantedTensor {
  std::string name;
  std::vector<int64_t> shape;
};

// The float16 bits `half` as a float32, exactly (every float16 is a float32):
// subnormals, ±0, ±inf and NaN included.
float halfToFloat(uint16_t half);

// The `wanted` tensors of the file's `size` bytes at `bytes`, in that order,
// each converted to float32. Other tensors of the file are ignored.
Status readSafetensorsF16(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                          std::vector<Tensor>& out);

}  // namespace attention_lab
