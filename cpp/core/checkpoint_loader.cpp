#include "checkpoint_loader.h"

#include <cstring>
#include <utility>

namespace attention_lab {
namespace {

// A shard's error names its file, where a whole-file read names "weights file".
Status inFile(Status s, const std::string& fileName) {
  if (s && s->field == kWeightsFileField) s->field = fileName;
  return s;
}

Status notReady(const char* step) { return fieldError("checkpoint", "checkpoint-step-order", {{"step", step}}); }

}  // namespace

Status CheckpointLoader::setConfig(const std::string& configText) {
  *this = CheckpointLoader{};
  if (Status s = parseCheckpointConfig(configText, checkpoint_)) return s;
  configured_ = true;
  return {};
}

Status CheckpointLoader::addShard(const std::string& fileName, const uint8_t* bytes, size_t available,
                                  uint64_t fileSize) {
  if (!configured_ || !slots_.empty()) return notReady("addShard");
  Shard shard{fileName, {}};
  if (Status s = shard.header.openHeader(bytes, available, fileSize)) return inFile(s, fileName);
  shards_.push_back(std::move(shard));
  return {};
}

Status CheckpointLoader::plan() {
  if (!configured_ || !slots_.empty()) return notReady("plan");
  if (shards_.empty()) return fieldError("checkpoint", "checkpoint-no-weights");
  const auto has = [&](const std::string& key) {
    for (const Shard& shard : shards_)
      if (shard.header.has(key)) return true;
    return false;
  };
  slots_ = checkpointSlots(checkpoint_, has);
  for (const WeightSlot& slot : slots_) {
    size_t at = 0;
    while (at + 1 < shards_.size() && !shards_[at].header.has(slot.key)) ++at;
    Piece piece{slot.key, at, {}};
    if (Status s = shards_[at].header.place({slot.key, slot.shape}, StoredFloats::F32F16BF16, piece.place)) {
      slots_.clear();
      pieces_.clear();
      return inFile(s, shards_[at].name);
    }
    pieces_.push_back(std::move(piece));
  }
  put_.assign(pieces_.size(), false);
  return {};
}

Status CheckpointLoader::stage(size_t k, uint8_t*& at, size_t& size) {
  if (k >= pieces_.size()) return notReady("stage");
  const Piece& piece = pieces_[k];
  size = static_cast<size_t>(piece.place.end - piece.place.begin);
  Tensor& tensor = *slots_[k].into;
  tensor.shape = slots_[k].shape;
  if (storedAsFloat32(piece.place)) {
    tensor.data.resize(size / sizeof(float));
    at = reinterpret_cast<uint8_t*>(tensor.data.data());
  } else {
    staging_.resize(size);
    at = staging_.data();
  }
  staged_ = k;
  return {};
}

Status CheckpointLoader::commit(size_t k) {
  if (k >= pieces_.size() || staged_ != k) return notReady("commit");
  staged_ = SIZE_MAX;
  const Piece& piece = pieces_[k];
  const WeightSlot& slot = slots_[k];
  const std::string& file = shards_[piece.shard].name;
  if (!storedAsFloat32(piece.place)) {
    const Status s = convertTensor(piece.place, slot.shape, staging_.data(), staging_.size(), *slot.into);
    std::vector<uint8_t>().swap(staging_);  // let a large staged piece go
    if (s) return inFile(s, file);
  }
  if (Status s = requireFinite(slot.key, slot.into->data)) return inFile(s, file);
  put_[k] = true;
  return {};
}

Status CheckpointLoader::put(size_t k, const uint8_t* bytes, size_t size) {
  uint8_t* at = nullptr;
  size_t need = 0;
  if (Status s = stage(k, at, need)) return s;
  if (size != need) {
    staged_ = SIZE_MAX;
    return inFile(fieldError(kWeightsFileField, "weights-file-too-short",
                             {{"bytes", std::to_string(size)}, {"need", std::to_string(need)}}),
                  shards_[pieces_[k].shard].name);
  }
  std::memcpy(at, bytes, size);
  return commit(k);
}

Status CheckpointLoader::finish(Checkpoint& out) {
  for (size_t k = 0; k < pieces_.size(); ++k)
    if (!put_[k]) return notReady("finish");
  if (pieces_.empty()) return notReady("finish");
  out = std::move(checkpoint_);
  *this = CheckpointLoader{};
  return {};
}

Status loadCheckpoint(const std::string& configText, const std::vector<CheckpointFile>& files, Checkpoint& out) {
  CheckpointLoader loader;
  if (Status s = loader.setConfig(configText)) return s;
  for (const CheckpointFile& f : files)
    if (Status s = loader.addShard(f.name, f.bytes, f.size, f.size)) return s;
  if (Status s = loader.plan()) return s;
  for (size_t k = 0; k < loader.pieces().size(); ++k) {
    const CheckpointLoader::Piece& piece = loader.pieces()[k];
    const CheckpointFile& f = files[piece.shard];
    const size_t size = static_cast<size_t>(piece.place.end - piece.place.begin);
    if (Status s = loader.put(k, f.bytes + piece.place.begin, size)) return s;
  }
  return loader.finish(out);
}

}  // namespace attention_lab
