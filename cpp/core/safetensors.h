// A reader for safetensors files of float tensors: the tiny model's weights
// (web/api/tiny/step-NNNN.safetensors, float16) and a Hugging Face checkpoint's
// model.safetensors (float32, float16 or bfloat16), all read into float32. The layout:
//
//   bytes [0, 8)        N, the header's length, a little-endian uint64
//   bytes [8, 8 + N)    a JSON object {name: {"dtype": "F16", "shape": [...],
//                       "data_offsets": [start, end]}, "__metadata__": {...}}
//   bytes [8 + N, ...)  the data; a tensor's bytes are [start, end) of it,
//                       little-endian F32, F16 or BF16, row-major
//
// Every problem is an error on the field "weights file" that says what is
// wrong (too short, not JSON, a tensor missing, of another dtype or shape,
// or lying outside the data), never a read out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "json.h"
#include "status.h"

namespace attention_lab {

// The field every error of a weights file names.
inline constexpr const char* kWeightsFileField = "weights file";

// The tensor a reader wants: its name and shape.
struct WantedTensor {
  std::string name;
  std::vector<int64_t> shape;
};

// The dtypes a reader accepts: the tiny model's files are F16 only; a
// checkpoint's may be any of the three.
enum class StoredFloats { F16Only, F32F16BF16 };

// The float16 bits `half` as a float32, exactly (every float16 is a float32):
// subnormals, ±0 and ±inf included; a NaN keeps its payload, made quiet as torch does.
float halfToFloat(uint16_t half);
// The bfloat16 bits as a float32: its upper 16 bits, exactly (torch's .float()).
float bfloat16ToFloat(uint16_t bits);

// Where a wanted tensor's bytes lie in its file, and how they are stored.
struct TensorPlace {
  uint64_t begin = 0, end = 0;  // bytes [begin, end) of the whole file (header included)
  int dtype = 0;                // an index into the reader's dtypes (F32, F16, BF16)
};

// A file whose header is parsed once, its tensors read by name. It keeps a
// pointer to the bytes, which must outlive it.
class SafetensorsFile {
 public:
  // Reads the header length and the header; errors as readSafetensorsF16's.
  Status open(const uint8_t* bytes, size_t size);
  // The same from the file's first `available` bytes (at least 8 + the
  // header's length) of `fileSize`: the page and the CLI read the header
  // first, then only the tensors a model wants (place, then convert).
  Status openHeader(const uint8_t* bytes, size_t available, uint64_t fileSize);
  // Whether the header has an entry `name` (whatever it holds).
  bool has(const std::string& name) const;
  // Where `want` lies in the file: missing, another dtype or shape, or bytes
  // outside the data are errors naming it.
  Status place(const WantedTensor& want, StoredFloats accepted, TensorPlace& out) const;
  // The tensor `want`, converted to float32 (place, then convert, from the
  // bytes open() was given).
  Status read(const WantedTensor& want, StoredFloats accepted, Tensor& out) const;

 private:
  JsonValue header_ = JsonValue::makeNull();
  const uint8_t* bytes_ = nullptr;  // the whole file (open), or null (openHeader)
  uint64_t dataStart_ = 0, dataSize_ = 0;
};

// Whether the bytes at `place` are the float32 values as this machine holds
// them (F32 on a little-endian machine): then a reader may read them straight
// into the tensor's memory.
bool storedAsFloat32(const TensorPlace& place);

// The bytes [place.begin, place.end) of a file -> the float32 tensor of `shape`.
// `size` must be place.end − place.begin (the loader checks; an error otherwise).
Status convertTensor(const TensorPlace& place, const std::vector<int64_t>& shape, const uint8_t* bytes, size_t size,
                     Tensor& out);

// The `wanted` tensors of the file's `size` bytes at `bytes`, in that order,
// each converted to float32. Other tensors of the file are ignored.
Status readSafetensors(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                       StoredFloats accepted, std::vector<Tensor>& out);
// A tensor read from a file must hold finite numbers: a NaN or an infinity
// reads fine but makes every probability NaN. The error names the tensor, the
// value and its index.
Status requireFinite(const std::string& name, const std::vector<float>& data);

// The same with F16 only (the tiny model's files).
Status readSafetensorsF16(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                          std::vector<Tensor>& out);

}  // namespace attention_lab
