// libFuzzer target: any bytes -> the safetensors reader (readSafetensorsF16,
// the tiny model's weights files) and the tiny model's own reader
// (readTinyWeights). Built and run by web/scripts/fuzz.sh (clang, ASan,
// UBSan) from small hand-made files; reproduce a finding with
// build/fuzz/safetensors_fuzz <file>.
//
// Besides "no crash, no sanitizer report, no read out of bounds":
//   - a file read without error gives every wanted tensor, in order, with its
//     shape and as many floats as the shape holds;
//   - an error is on the field "weights file" with a weights-file-* code;
//   - readTinyWeights accepts only finite weights.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "safetensors.h"
#include "tiny_model.h"

namespace attention_lab {
namespace {

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t axis : shape) n *= axis;
  return n;
}

void checkError(const ConfigError& error) {
  FUZZ_CHECK(error.field == kWeightsFileField);
  FUZZ_CHECK(error.code.compare(0, 13, "weights-file-") == 0);
  FUZZ_CHECK(!error.message.empty());
}

void check(const uint8_t* data, size_t size) {
  // Two small tensors (the seeds are files of these), so that whole files are within reach.
  const std::vector<WantedTensor> wanted = {{"a", {2, 2}}, {"b", {3}}};
  std::vector<Tensor> tensors;
  if (Status s = readSafetensorsF16(data, size, wanted, tensors)) {
    checkError(*s);
  } else {
    FUZZ_CHECK(tensors.size() == wanted.size());
    for (size_t k = 0; k < wanted.size(); ++k) {
      FUZZ_CHECK(tensors[k].shape == wanted[k].shape);
      FUZZ_CHECK(static_cast<int64_t>(tensors[k].data.size()) == elements(wanted[k].shape));
    }
  }
  TinyWeights weights;
  if (Status s = readTinyWeights(data, size, weights)) {
    checkError(*s);
  } else {
    for (const Tensor* tensor : {&weights.tokEmb, &weights.posEmb})
      for (float x : tensor->data) FUZZ_CHECK(std::isfinite(x));
  }
}

}  // namespace
}  // namespace attention_lab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attention_lab::check(data, size);
  return 0;
}
