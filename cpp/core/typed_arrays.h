// The typed arrays a JS caller sends beside the config's JSON text: in the
// JSON, {"$tensor": k, "shape": [...]} stands for array k. An array is read
// only once the parser knows which field it fills and the memory budget
// allows it, a chunk at a time, so no full double copy is ever made.
#pragma once

#include <cstdint>
#include <vector>

namespace attention_lab {

class TypedArrays {
 public:
  virtual ~TypedArrays() = default;
  virtual size_t count() const = 0;
  virtual int64_t length(size_t k) const = 0;
  // out[0, n) = array k's entries [offset, offset + n), as doubles.
  virtual void read(size_t k, int64_t offset, int64_t n, double* out) const = 0;

  // Books `bytes` against a budget of `limit` for all the arrays of one config;
  // false when it would go over.
  bool book(int64_t bytes, int64_t limit) const {
    if (booked_ + bytes > limit) return false;
    booked_ += bytes;
    return true;
  }
  int64_t booked() const { return booked_; }

 private:
  mutable int64_t booked_ = 0;
};

// Arrays held in C++ (the native tests, and a parse without any).
class VectorTypedArrays : public TypedArrays {
 public:
  VectorTypedArrays() = default;
  explicit VectorTypedArrays(std::vector<std::vector<double>> arrays) : arrays_(std::move(arrays)) {}
  size_t count() const override { return arrays_.size(); }
  int64_t length(size_t k) const override { return static_cast<int64_t>(arrays_[k].size()); }
  void read(size_t k, int64_t offset, int64_t n, double* out) const override {
    for (int64_t i = 0; i < n; ++i) out[i] = arrays_[k][static_cast<size_t>(offset + i)];
  }

 private:
  std::vector<std::vector<double>> arrays_;
};

}  // namespace attention_lab
