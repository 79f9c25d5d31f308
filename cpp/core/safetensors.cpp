#include "safetensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "finite.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// A header holds a few entries per tensor: this bounds the parse of a hostile one.
constexpr size_t kMaxHeaderValues = 1 << 16;

Status fileError(const char* code, ErrorParams params = {}) {
  return fieldError(kWeightsFileField, code, std::move(params));
}

// Whether this machine stores a float's bytes least significant first, as safetensors files do.
const bool kLittleEndian = [] {
  const uint32_t one = 1;
  uint8_t first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}();

// The number of elements of `shape` (a model's own, within its limits: no overflow).
uint64_t elementCount(const std::vector<int64_t>& shape) {
  uint64_t count = 1;
  for (int64_t n : shape) count *= static_cast<uint64_t>(n);
  return count;
}

// A JSON number that is a whole number in [0, 2^53]: a size or an offset.
bool wholeNumber(const JsonValue& v, uint64_t& out) {
  if (!v.isNumber() || !(v.number() >= 0) || v.number() > 9007199254740992.0 || v.number() != std::floor(v.number()))
    return false;
  out = static_cast<uint64_t>(v.number());
  return true;
}

// A stored dtype: its name in the header, its bytes per element, and its conversion to float32.
struct StoredDtype {
  const char* name;
  uint64_t bytes;
  float (*toFloat)(const uint8_t* p);  // p: `bytes` little-endian bytes
};

float f32At(const uint8_t* p) {
  const uint32_t bits = static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
                        static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
uint16_t bits16At(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
float f16At(const uint8_t* p) { return halfToFloat(bits16At(p)); }
float bf16At(const uint8_t* p) { return bfloat16ToFloat(bits16At(p)); }

constexpr StoredDtype kF16 = {"F16", 2, f16At};
constexpr StoredDtype kAnyFloat[] = {{"F32", 4, f32At}, kF16, {"BF16", 2, bf16At}};

// The accepted dtype named `name`, or nullptr.
const StoredDtype* acceptedDtype(const std::string& name, StoredFloats accepted) {
  if (accepted == StoredFloats::F16Only) return name == kF16.name ? &kAnyFloat[1] : nullptr;
  for (const StoredDtype& dtype : kAnyFloat)
    if (name == dtype.name) return &dtype;
  return nullptr;
}

// What an error says the reader accepts.
const char* acceptedText(StoredFloats accepted) {
  return accepted == StoredFloats::F16Only ? "F16" : "F32, F16 or BF16";
}

}  // namespace

float halfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    // ±inf; a NaN keeps its payload and comes out quiet, as torch's .float() gives it (0x7C01 -> 0x7FC02000)
    bits = sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x00400000u : 0u);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);  // rebias 15 -> 127
  } else if (mantissa == 0) {
    bits = sign;  // ±0
  } else {
    // A subnormal float16, mantissa · 2^-24: normalized, as float32 holds it.
    int e = 113;  // the exponent field of 2^-14, less one per shift below
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | (static_cast<uint32_t>(e) << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

float bfloat16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float out;
  std::memcpy(&out, &wide, sizeof out);
  return out;
}

Status SafetensorsFile::openHeader(const uint8_t* bytes, size_t available, uint64_t fileSize) {
  if (available < 8 || fileSize < 8)
    return fileError("weights-file-too-short", {{"bytes", std::to_string(fileSize)}, {"need", "8"}});
  uint64_t headerLength = 0;
  for (int i = 7; i >= 0; --i) headerLength = headerLength << 8 | bytes[i];
  if (headerLength > fileSize - 8 || headerLength > available - 8)
    return fileError("weights-file-too-short", {{"bytes", std::to_string(std::min<uint64_t>(fileSize, available))},
                                                {"need", formatNumber(8.0 + static_cast<double>(headerLength))}});
  const std::string text(reinterpret_cast<const char*>(bytes + 8), static_cast<size_t>(headerLength));
  JsonParseResult parsed = parseJson(text, kMaxHeaderValues);
  if (!parsed.ok || !parsed.value.isObject()) return fileError("weights-file-header");
  header_ = std::move(parsed.value);
  bytes_ = nullptr;
  dataStart_ = 8 + headerLength;
  dataSize_ = fileSize - dataStart_;
  return {};
}

Status SafetensorsFile::open(const uint8_t* bytes, size_t size) {
  if (Status s = openHeader(bytes, size, size)) return s;
  bytes_ = bytes;
  return {};
}

bool SafetensorsFile::has(const std::string& name) const { return header_.isObject() && header_.find(name); }

// One tensor's entry of the header, checked against `want` -> where its bytes lie.
Status SafetensorsFile::place(const WantedTensor& want, StoredFloats accepted, TensorPlace& out) const {
  const JsonValue* entry = header_.isObject() ? header_.find(want.name) : nullptr;
  if (!entry) return fileError("weights-file-missing-tensor", {{"name", want.name}});
  const JsonValue* dtypeName = entry->isObject() ? entry->find("dtype") : nullptr;
  const JsonValue* shape = entry->isObject() ? entry->find("shape") : nullptr;
  const JsonValue* offsets = entry->isObject() ? entry->find("data_offsets") : nullptr;
  if (!dtypeName || !dtypeName->isString() || !shape || !shape->isArray() || !offsets || !offsets->isArray() ||
      offsets->array().size() != 2)
    return fileError("weights-file-header");
  const StoredDtype* dtype = acceptedDtype(dtypeName->string(), accepted);
  if (!dtype)
    return fileError("weights-file-dtype",
                     {{"name", want.name}, {"got", dtypeName->string()}, {"expected", acceptedText(accepted)}});
  std::vector<int64_t> got;
  for (const JsonValue& n : shape->array()) {
    uint64_t size;
    if (!wholeNumber(n, size)) return fileError("weights-file-header");
    got.push_back(static_cast<int64_t>(size));
  }
  if (got != want.shape)
    return fileError("weights-file-shape",
                     {{"name", want.name}, {"got", shapeText(got)}, {"expected", shapeText(want.shape)}});
  uint64_t start, end;
  if (!wholeNumber(offsets->array()[0], start) || !wholeNumber(offsets->array()[1], end))
    return fileError("weights-file-header");
  // The wanted shape is the reader's own (a model's config, checked against its limits): no overflow.
  const uint64_t need = dtype->bytes * elementCount(want.shape);
  if (end < start || end - start != need || end > dataSize_)
    return fileError("weights-file-bounds", {{"name", want.name},
                                             {"start", std::to_string(start)},
                                             {"end", std::to_string(end)},
                                             {"need", std::to_string(need)},
                                             {"size", std::to_string(dataSize_)}});
  out.begin = dataStart_ + start;
  out.end = dataStart_ + end;
  out.dtype = static_cast<int>(dtype - kAnyFloat);
  return {};
}

Status SafetensorsFile::read(const WantedTensor& want, StoredFloats accepted, Tensor& out) const {
  TensorPlace at;
  if (Status s = place(want, accepted, at)) return s;
  if (!bytes_) return fileError("weights-file-header");  // opened by openHeader: no bytes to read from
  return convertTensor(at, want.shape, bytes_ + at.begin, static_cast<size_t>(at.end - at.begin), out);
}

bool storedAsFloat32(const TensorPlace& place) { return place.dtype == 0 && kLittleEndian; }

Status convertTensor(const TensorPlace& place, const std::vector<int64_t>& shape, const uint8_t* bytes, size_t size,
                     Tensor& out) {
  const StoredDtype& dtype = kAnyFloat[place.dtype];
  const uint64_t count = elementCount(shape);
  if (size != place.end - place.begin || size != dtype.bytes * count)
    return fileError("weights-file-too-short",
                     {{"bytes", std::to_string(size)}, {"need", std::to_string(dtype.bytes * count)}});
  out.shape = shape;
  out.data.resize(static_cast<size_t>(count));
  float* to = out.data.data();
  // F32 on a little-endian machine (wasm, x86, ARM as run) is the file's bytes: copied whole
  // (a 124M-weight GPT-2 opens about 4× faster than converting each float).
  if (storedAsFloat32(place)) {
    std::memcpy(to, bytes, static_cast<size_t>(count) * sizeof(float));
    return {};
  }
  for (uint64_t i = 0; i < count; ++i) to[i] = dtype.toFloat(bytes + dtype.bytes * i);
  return {};
}

Status requireFinite(const std::string& name, const std::vector<float>& data) {
  if (allFinite(data.data(), data.size())) return {};
  for (size_t i = 0; i < data.size(); ++i) {
    if (std::isfinite(data[i])) continue;
    const char* got = std::isnan(data[i]) ? "NaN" : data[i] > 0 ? "inf" : "-inf";
    return fileError("weights-file-not-finite", {{"name", name}, {"got", got}, {"index", std::to_string(i)}});
  }
  return {};
}

Status readSafetensors(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                       StoredFloats accepted, std::vector<Tensor>& out) {
  SafetensorsFile file;
  if (Status s = file.open(bytes, size)) return s;
  out.assign(wanted.size(), Tensor{});
  for (size_t i = 0; i < wanted.size(); ++i)
    if (Status s = file.read(wanted[i], accepted, out[i])) return s;
  return {};
}

Status readSafetensorsF16(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                          std::vector<Tensor>& out) {
  return readSafetensors(bytes, size, wanted, StoredFloats::F16Only, out);
}

}  // namespace attention_lab
