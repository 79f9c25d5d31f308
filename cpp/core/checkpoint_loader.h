// Opening a Hugging Face checkpoint folder a piece at a time, so that the page
// (a File's slices) and the CLI (a file descriptor's reads) hold only the
// bytes a model needs, never a whole file beside its float32 copy:
//
//   setConfig(config.json's text)                the family, its sizes, the memory check
//   addShard(name, first bytes, file size)       per *.safetensors: its header only
//   plan()                                       every wanted tensor found, checked (dtype,
//                                                shape, bounds) -> pieces(): shard, byte range
//   put(k, bytes)                                piece k's bytes -> float32, checked finite
//   finish(checkpoint)                           every piece put -> a checkpoint to run
//
// A sharded checkpoint's model.safetensors.index.json is not needed: a tensor
// is looked for in every shard given. Errors from a shard name its file as
// their field ("model-00001-of-00002.safetensors").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "safetensors.h"
#include "status.h"
#include "weight_slots.h"

namespace attention_lab {

class CheckpointLoader {
 public:
  // One range of one shard to read, for one weight slot.
  struct Piece {
    std::string key;
    size_t shard;
    TensorPlace place;
  };

  Status setConfig(const std::string& configText);
  // The file's first `available` bytes (8 + the header's length, or more) of its `fileSize`.
  Status addShard(const std::string& fileName, const uint8_t* bytes, size_t available, uint64_t fileSize);
  Status plan();
  const std::vector<Piece>& pieces() const { return pieces_; }
  const CheckpointSizes sizes() const { return checkpointSizes(checkpoint_); }
  // Piece k's bytes go to `at` (`size` of them), then commit(k) converts and checks them. `at` is
  // the tensor's own memory when the file's float32 bytes are its values (no copy), else a
  // staging buffer; it stays valid until commit. The page and the CLI write there directly.
  Status stage(size_t piece, uint8_t*& at, size_t& size);
  Status commit(size_t piece);
  // stage, copy `bytes`, commit.
  Status put(size_t piece, const uint8_t* bytes, size_t size);
  Status finish(Checkpoint& out);

 private:
  struct Shard {
    std::string name;
    SafetensorsFile header;
  };
  bool configured_ = false;
  Checkpoint checkpoint_;
  std::vector<Shard> shards_;
  std::vector<WeightSlot> slots_;  // into checkpoint_'s weights, one per piece
  std::vector<Piece> pieces_;
  std::vector<bool> put_;
  std::vector<uint8_t> staging_;  // a float16 / bfloat16 piece's bytes until commit
  size_t staged_ = SIZE_MAX;      // the piece stage() was last called for
};

// The steps above on a whole folder already in memory (the native tests, the fuzzer).
struct CheckpointFile {
  std::string name;
  const uint8_t* bytes;
  size_t size;
};
Status loadCheckpoint(const std::string& configText, const std::vector<CheckpointFile>& files, Checkpoint& out);

}  // namespace attention_lab
