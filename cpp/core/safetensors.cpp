#include "safetensors.h"

#include <cmath>
#include <cstring>

#include "json.h"
#include "text_format.h"

namespace attention_lab {
namespace {

// A header holds a few entries per tensor: this bounds the parse of a hostile one.
constexpr size_t kMaxHeaderValues = 1 << 16;

Status fileError(const char* code, ErrorParams params = {}) {
  return fieldError(kWeightsFileField, code, std::move(params));
}

// A JSON number that is a whole number in [0, 2^53]: a size or an offset.
bool wholeNumber(const JsonValue& v, uint64_t& out) {
  if (!v.isNumber() || !(v.number() >= 0) || v.number() > 9007199254740992.0 || v.number() != std::floor(v.number()))
    return false;
  out = static_cast<uint64_t>(v.number());
  return true;
}

// One tensor's entry of the header -> its float32 values, checked against `want`.
Status readTensor(const JsonValue& header, const WantedTensor& want, const uint8_t* data, uint64_t dataSize,
                  Tensor& out) {
  const JsonValue* entry = header.find(want.name);
  if (!entry) return fileError("weights-file-missing-tensor", {{"name", want.name}});
  const JsonValue* dtype = entry->isObject() ? entry->find("dtype") : nullptr;
  const JsonValue* shape = entry->isObject() ? entry->find("shape") : nullptr;
  const JsonValue* offsets = entry->isObject() ? entry->find("data_offsets") : nullptr;
  if (!dtype || !dtype->isString() || !shape || !shape->isArray() || !offsets || !offsets->isArray() ||
      offsets->array().size() != 2)
    return fileError("weights-file-header");
  if (dtype->string() != "F16") return fileError("weights-file-dtype", {{"name", want.name}, {"got", dtype->string()}});
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
  uint64_t count = 1;
  for (int64_t n : want.shape) count *= static_cast<uint64_t>(n);
  const uint64_t need = 2 * count;
  if (end < start || end - start != need || end > dataSize)
    return fileError("weights-file-bounds", {{"name", want.name},
                                             {"start", std::to_string(start)},
                                             {"end", std::to_string(end)},
                                             {"need", std::to_string(need)},
                                             {"size", std::to_string(dataSize)}});
  out.shape = want.shape;
  out.data.resize(static_cast<size_t>(count));
  const uint8_t* p = data + start;
  for (uint64_t i = 0; i < count; ++i)
    out.data[static_cast<size_t>(i)] = halfToFloat(static_cast<uint16_t>(p[2 * i] | p[2 * i + 1] << 8));
  return {};
}

}  // namespace

float halfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // ±inf, NaN (its payload kept)
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

Status readSafetensorsF16(const uint8_t* bytes, size_t size, const std::vector<WantedTensor>& wanted,
                          std::vector<Tensor>& out) {
  if (size < 8) return fileError("weights-file-too-short", {{"bytes", std::to_string(size)}, {"need", "8"}});
  uint64_t headerLength = 0;
  for (int i = 7; i >= 0; --i) headerLength = headerLength << 8 | bytes[i];
  if (headerLength > size - 8)
    return fileError("weights-file-too-short", {{"bytes", std::to_string(size)},
                                                {"need", formatNumber(8.0 + static_cast<double>(headerLength))}});
  const std::string text(reinterpret_cast<const char*>(bytes + 8), static_cast<size_t>(headerLength));
  const JsonParseResult parsed = parseJson(text, kMaxHeaderValues);
  if (!parsed.ok || !parsed.value.isObject()) return fileError("weights-file-header");
  const uint8_t* data = bytes + 8 + headerLength;
  const uint64_t dataSize = size - 8 - headerLength;
  out.assign(wanted.size(), Tensor{});
  for (size_t i = 0; i < wanted.size(); ++i)
    if (Status s = readTensor(parsed.value, wanted[i], data, dataSize, out[i])) return s;
  return {};
}

}  // namespace attention_lab
