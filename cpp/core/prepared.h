// A prepared run (lab.prepare in JS): a config parsed, validated, tokenized,
// embedded and drawn once, then run many times. Each run computes from the
// projections on, on the prepared X [B, S, D] or on a new X of that shape
// (as an inference session takes new inputs); the dropout draws start each
// time from the generator state the draws left, so a run without a new X
// equals runAttention on the config bit for bit.
//
//   prepare:  validate -> tokenize -> measure -> embed X, draw the weights   (once)
//   run:      [X := the caller's] -> Q, K, V -> heads -> output               (per call)
//   update:   edits written over the kept weights (and embedding table -> X)  (no parse, no draw)
//
// The projections of the prepared X are kept too: a run without a new X
// projects again only what an update made stale (an edit of W_Q: Q alone; of
// W_O: nothing; an embedding edit: Q, K and V), then computes from there on.
#pragma once

#include <cstdint>
#include <memory>

#include "attention.h"
#include "config.h"
#include "status.h"

namespace attention_lab {

class PreparedAttention {
 public:
  PreparedAttention();
  ~PreparedAttention();
  PreparedAttention(const PreparedAttention&) = delete;
  PreparedAttention& operator=(const PreparedAttention&) = delete;

  // Everything before the projections, with runAttention's errors; the
  // memory budget is checked for a run that keeps only the output (each run
  // checks its own). On an error the object stays unprepared.
  Status prepare(AttentionConfig config);
  bool prepared() const;

  // The config with the edits applied so far.
  const AttentionConfig& config() const;
  // What every run's result holds alike: tokens, ids, contextTokens,
  // contextIds, vocab, unknownTokens, sizes, headDim, scaleFactor.
  const AttentionResult& header() const;

  // B·S·D, the floats of X, and a buffer of that many for a caller's X
  // ([B, S, D] row-major), read by run(…, useInput = true).
  int64_t inputLength() const;
  float* inputBuffer();

  // runAttention's tensors, aliases, selection and warnings (and sizes,
  // headDim, scaleFactor) for `wanted` and `selection`, computed on
  // inputBuffer() when `useInput` (a number in it that is not finite is an
  // error on "x[i]"), else on the prepared X. The header's lists are not
  // copied into `result` (header()). The result's buffers from the previous
  // call are reused.
  Status run(AttentionResult& result, TensorSet wanted = TensorSet::all(), Selection selection = {},
             bool useInput = false);

  // The weight and embedding edits of `edits` (its weightEdits and
  // embeddingEdits; nothing else of it is read) applied after those the
  // config holds, as if prepared with them: the kept weights get the new
  // numbers, an embedding edit rebuilds X from the kept table. Checked
  // first, as runAttention checks them: on an error nothing changes.
  Status update(const AttentionConfig& edits);

  // run() as the steppers call runAttention (kv_cache.h, online_softmax.h):
  // on the prepared X, the result with the header's tokens, ids and vocab.
  AttentionRun stepperRun();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace attention_lab
