#include "errors.h"

#include <algorithm>
#include <cctype>

#include "json.h"

namespace attention_lab {
namespace {

// The English templates. The engine's wasm is built without them (ATTENTION_LAB_ENGLISH_IN_JS, about
// 4 KB of the gzipped wasm): its errors and warnings carry a code and params and an empty message,
// which the JS API fills from the same templates in the schema the build writes
// (web/api/errors.js; cpp/fuzz/schema_dump.cpp, which prints them, is built with this file's text).
#ifdef ATTENTION_LAB_ENGLISH_IN_JS
#define EN(text) ""
constexpr bool kEnglishInJs = true;
#else
#define EN(text) text
constexpr bool kEnglishInJs = false;
#endif

// The engine's codes, then those of its JS API and the <attention-lab>
// element (web/api/index.js, web/element), which build their messages from
// this table too. One English text per code: a message that reads
// differently is another code.
const ErrorKind kEngineKinds[] = {
    // A single value (schema.cpp).
    {"wrong-type", EN("{field} must be {expected}, got {got}")},
    {"not-a-number", EN("{field} must be a finite number, got {got}")},
    {"out-of-range", EN("{field} ({got}) must be between {min} and {max}")},
    {"not-whole", EN("{field} must be a whole number, got {got}")},
    {"not-float32", EN("{field} ({got}) does not fit in float32 (largest {max})")},
    {"not-one-of", EN("{field} must be one of {choices}, got {got}")},
    {"not-one-of-or-number", EN("{field} must be {choices} or a number, got {got}")},
    {"not-inf-or-number", EN("{field} must be \"-inf\" or a finite number, got {got}")},
    {"unknown-field", EN("unknown field \"{field}\"")},
    {"unknown-field-did-you-mean", EN("unknown field \"{field}\" (did you mean \"{suggestion}\"?)")},
    {"unknown-name", EN("unknown field \"{field}\" (known: {known})")},
    {"one-of-only", EN("give only one of {names}")},
    {"lone-surrogate",
     EN("{field} holds a lone surrogate ({surrogate}), half of a UTF-16 pair without the other half: it is no "
        "character; remove it or complete the pair")},
    // Sentences and tokens (schema.cpp, tokens.cpp).
    {"no-sentences", EN("{field} is empty: give at least one sentence")},
    {"empty-sentence", EN("{field} is empty: type at least one token")},
    {"empty-token", EN("{field} is an empty token")},
    {"token-whitespace", EN("{field} ({token}) contains whitespace: give its parts as separate tokens")},
    {"too-many-sentences", EN("{field} has {count} sentences; the batch limit is {limit}")},
    {"sentence-too-long", EN("{field} has {count} tokens; the limit is {limit} per sentence")},
    {"vocab-empty", EN("{field} is empty: give at least one token")},
    {"vocab-too-large", EN("the vocab has {count} tokens; the limit is {limit}")},
    // Random inputs.
    {"random-input-missing", EN("{field} needs \"randn\" or \"rand\": [B, S, dModel]")},
    {"random-input-both", EN("{field} gives both \"randn\" and \"rand\": give one of them")},
    {"random-input-shape", EN("{field} must be [B, S, dModel], 3 numbers")},
    {"random-input-d-model", EN("{field} ({got}) must equal dModel ({dModel})")},
    // Explicit values and edits.
    {"given-values-too-large",
     EN("the given values need {need} MiB with {field}; the limit for given values is {limit} MiB")},
    {"not-a-matrix", EN("{field} must be an array of numbers (or rows of numbers)")},
    {"matrix-dimensions", EN("{field} must be a vector or a matrix")},
    {"typed-array-length", EN("{field} has {length} numbers, but its shape {shape} needs {count}")},
    {"ragged-rows", EN("{field} has {count} numbers, but row {row} has {cols}")},
    {"edit-not-index-value", EN("{field} must be [index, value], got {got}")},
    {"edit-not-row-column-value", EN("{field} must be [row, column, value], got {got}")},
    {"edit-row-outside", EN("{field}: row {row} is outside [0, {max}]")},
    {"edit-column-outside", EN("{field}: column {column} is outside [0, {max}]")},
    {"edit-token-unknown", EN("{field}: the token \"{token}\" is not in the vocab")},
    {"weight-shape", EN("{field} must be {expected} (dModel = {dModel}), got {got}")},
    {"additive-weight-shape",
     EN("{field} must be {expected} (headDim = {headDim}, additiveHidden = {hidden}), got {got}")},
    {"embedding-not-matrix", EN("{field} must be a matrix [len(vocab), dModel]")},
    {"embedding-shape", EN("embedding.values must be {expected} ([len(vocab), dModel]), got {got}")},
    {"given-without-out-proj", EN("{field} is given but weights.outProj is false")},
    {"sink-logit-heads", EN("{field} has {count} sink logits: give one number, or one per head ({numHeads})")},
    {"given-without-output-gate", EN("{field} is given but outputGate is false")},
    {"given-without-diff", EN("{field} is given but diff.depth is not set: it belongs to differential attention")},
    {"given-without-mla", EN("{field} is given but mla.kvRank is not set: it belongs to multi-head latent attention")},
    {"mla-not-its-weight",
     EN("{field} is not a weight of multi-head latent attention, which has W_Q, W_DKV, W_KR, kv_norm, W_UK, W_UV "
        "and W_O")},
    {"mla-weight-shape",
     EN("{field} must be {expected} (from dModel, numHeads, mla.kvRank, mla.nopeDim, mla.ropeDim and "
        "mla.valueDim), got {got}")},
    {"given-without-additive",
     EN("{field} is given but score is \"dot\": W_a, U_a and v_a belong to the additive score")},
    // Combinations (validate.cpp).
    {"not-divisible", EN("dModel ({dModel}) must be divisible by numHeads ({numHeads})")},
    {"input-required", EN("text is required: type a sentence (or give texts, tokens or input)")},
    {"context-batch-mismatch",
     EN("{field} gives {context} sequences but the queries have {queries}; give one context per query sentence")},
    {"max-len-without-tokens", EN("maxLen applies to sentences; a random input has no tokens to pad")},
    {"embedding-without-tokens", EN("the embedding table needs tokens, but the input is random")},
    {"per-head-with-mha",
     EN("weights.layout \"per-head\" is not available with weights.init \"torch-mha\": nn.MultiheadAttention uses one "
        "fused in_proj")},
    {"per-head-with-clones",
     EN("weights.layout \"per-head\" is not available with weights.init \"torch-linear-clones\": its one "
        "nn.Linear(dModel, dModel) is copied whole for Q, K, V and O, so there are no per-head layers to draw")},
    // The modern variants (validate.cpp).
    {"rope-odd-head-dim",
     EN("RoPE rotates pairs of features, so headDim must be even; headDim is {headDim} (dModel / numHeads)")},
    {"rope-scaling-needs-rope", EN("rope.scaling.type {got} scales RoPE's frequencies: choose a rope.style too")},
    {"yarn-factor-below-one",
     EN("rope.scaling.factor ({got}) must be at least 1 for YaRN: it stretches the context, never shrinks it")},
    {"dynamic-head-dim",
     EN("dynamic NTK raises to the power dk / (dk − 2), so the head dimension must be more than 2; it is {headDim}")},
    {"kv-heads-not-divisor",
     EN("numHeads ({numHeads}) must be divisible by numKVHeads ({numKVHeads}): each key/value head serves the same "
        "number of query heads")},
    {"kv-heads-init",
     EN("numKVHeads ({numKVHeads}) below numHeads ({numHeads}) needs weights.init \"torch-linear\", \"torch-rand\" or "
        "\"identity\" and weights.layout \"fused\": nn.MultiheadAttention and the cloned nn.Linear(dModel, dModel) "
        "have no grouped-query form")},
    {"window-needs-causal", EN("a sliding window needs mask \"causal\" or \"causal+padding\"")},
    {"needs-self-attention", EN("{field} uses the positions i − j of queries and keys in one sequence, so it needs "
                                "self-attention (no context)")},
    {"diff-half-heads",
     EN("differential attention splits each head into two half-heads: dModel ({dModel}) must be divisible by 2 × "
        "numHeads ({numHeads})")},
    {"diff-excludes",
     EN("differential attention follows the Diff Transformer's layer, which has no {other}: turn {other} off or leave "
        "diff.depth empty")},
    {"mla-without-kv-rank",
     EN("{field} is set but mla.kvRank is not: multi-head latent attention starts with the latent's size")},
    {"mla-size-required",
     EN("multi-head latent attention needs {field} as well as mla.kvRank, mla.nopeDim, mla.ropeDim and "
        "mla.valueDim")},
    {"mla-rope-dim-odd", EN("mla.ropeDim must be even (RoPE turns pairs of numbers), got {got}")},
    {"mla-needs-rope",
     EN("multi-head latent attention rotates the rope parts of q and k: choose a rope.style (DeepSeek uses "
        "\"interleaved\")")},
    {"mla-excludes",
     EN("multi-head latent attention is DeepSeek's MLA layer as it is, and {other} would change it: set {other} "
        "back to its default or leave mla.kvRank empty")},
    // Sizes (validate.cpp, schema.cpp).
    {"batch-too-large", EN("the batch ({batch}) exceeds the limit of {limit}")},
    {"query-too-long", EN("the query length ({length}) exceeds the limit of {limit} tokens")},
    {"keys-too-long", EN("the key length ({length}) exceeds the limit of {limit} tokens")},
    {"memory-limit",
     EN("this run needs {need} MiB of intermediates; the memory limit is {limit} MiB (fewer tokens, heads or a smaller "
        "dModel)")},
    {"additive-too-large",
     EN("the additive scores need {terms} tanh terms (batch × heads × queries × keys × additiveHidden); the limit is "
        "{limit} (fewer tokens or heads, or a smaller additiveHidden)")},
    {"config-too-large",
     EN("the config is {size} MiB of JSON; the limit is {limit} MiB (give large matrices as typed arrays, single "
        "numbers as edits)")},
    {"too-many-values",
     EN("the config has more than {limit} values (give large matrices as typed arrays, single numbers as edits)")},
    // Warnings of a run (attention.cpp).
    {"nan-rows",
     EN("{count} row(s) of weights are NaN, as PyTorch gives them: softmax is undefined for a row whose keys are all "
        "masked with -inf, or whose scores overflow to infinity. A finite maskFill such as -1e9, or a smaller scale, "
        "avoids it.")},
    // The tiny trained model (tiny_model.cpp) and its weights files (safetensors.cpp).
    {"model-needs-text",
     EN("model \"tiny\" reads one text of 1 to {max} UTF-8 bytes: give it as text, not as {field}")},
    {"text-required-for-model", EN("model \"tiny\" needs a text: type 1 to {max} UTF-8 bytes")},
    {"text-too-long-for-model",
     EN("text is {bytes} bytes of UTF-8; the tiny model reads at most {max} (its context): shorten it")},
    {"checkpoint-unknown", EN("checkpoint {got} is not one of the tiny model's saved training steps: {steps}")},
    {"checkpoint-not-loaded",
     EN("the weights of checkpoint {step} are not loaded: call await lab.loadTinyModel({step}) first")},
    {"model-checkpoint-files",
     EN("model \"checkpoint\" runs from the files of a checkpoint you open (config.json, the .safetensors, "
        "tokenizer.json): on the page with \"Open a model\", in JS with openCheckpoint(files), in the CLI with "
        "--model-dir; a config alone has no weights for it")},
    {"model-ignores-fields",
     EN("model \"tiny\" reads only text and checkpoint; these settings have no effect: {fields}")},
    {"weights-file-too-short",
     EN("the weights file has {bytes} bytes, fewer than the {need} its header length needs: it is not a whole "
        "safetensors file")},
    {"weights-file-header", EN("the weights file's header is not a JSON object of tensors, each with a dtype, a shape "
                               "and data_offsets [start, "
                               "end] (a safetensors file starts with the header's length, then that header)")},
    {"weights-file-missing-tensor", EN("the weights file has no tensor \"{name}\"")},
    {"weights-file-dtype", EN("the weights file's tensor \"{name}\" is {got}; the model's weights are {expected}")},
    {"weights-file-shape", EN("the weights file's tensor \"{name}\" has shape {got}; the model needs {expected}")},
    {"weights-file-bounds",
     EN("the weights file's tensor \"{name}\" claims bytes {start} to {end} of the data, but it needs {need} bytes "
        "within the {size} bytes of data the file holds")},
    {"weights-file-not-finite",
     EN("the weights file's tensor \"{name}\" holds {got} at index {index}: a weight must be a finite number, or "
        "every output is NaN")},
    // A checkpoint's config.json (gpt2_config.cpp) and its forward (gpt2_model.cpp).
    {"model-config-not-json", EN("the model's config.json is not a JSON object: {reason}")},
    {"model-config-missing", EN("{field} is missing: the model's config.json must give it")},
    {"model-config-not-divisible", EN("n_embd ({n_embd}) must be divisible by n_head ({n_head})")},
    {"model-too-large",
     EN("the model has {count} weights, {need} MiB as float32; the limit is {limit} MiB (a smaller model)")},
    {"model-tokens-empty", EN("{field} is empty: give 1 to {max} token ids")},
    {"model-too-many-tokens",
     EN("{field} has {count} token ids; the model reads at most {max} (its positions, or fewer: as many as fit in the "
        "memory limit)")},
    // Opening a checkpoint's files a piece at a time (checkpoint_loader.cpp).
    {"checkpoint-no-weights",
     EN("no weights: give the checkpoint's model.safetensors (or every model-0000N-of-0000M.safetensors) with its "
        "config.json")},
    {"checkpoint-no-config", EN("no config.json: give the checkpoint's config.json with its weights")},
    {"checkpoint-failed", EN("the model's engine stopped (it ran out of memory, or failed) and let the model go: open "
                             "it again, or a smaller "
                             "one")},
    {"checkpoint-no-tokenizer",
     EN("{dir} has no tokenizer.json: give token ids (--ids), or a folder with its tokenizer.json")},
    {"checkpoint-needs-server",
     EN("a page opened from a file cannot load the model's engine ({url}): open it through a web server (npm start, or "
        "dist/ on any static host)")},
    {"checkpoint-step-order", EN("the checkpoint's files were read out of order (at {step}): open it again")},
    // A checkpoint's tokenizer.json (web/api/checkpoint/tokenizer.js): {field} is the JSON path of the culprit.
    {"tokenizer-not-json", EN("tokenizer.json is not valid JSON: {reason}")},
    {"tokenizer-missing", EN("{field} is missing: a BPE tokenizer.json must give it")},
    {"tokenizer-unsupported", EN("{field} is {got}; this tokenizer reads {supported}")},
    {"tokenizer-bad-merge", EN("{field} must be two tokens, as \"a b\" or [\"a\", \"b\"], got {got}")},
    {"tokenizer-merge-unknown", EN("{field}: the token \"{token}\" is not in model.vocab")},
    {"tokenizer-bad-pattern", EN("{field} is not a pattern this tokenizer can run ({reason})")},
    {"tokenizer-unknown-id", EN("{field} ({got}) is not a token id of this tokenizer")},
    // The JS API (web/api/index.js).
    {"config-not-object-or-text", EN("config must be an object (or JSON text)")},
    {"config-not-serializable", EN("config cannot be written as JSON: {reason}")},
    {"tensors-not-array", EN("{field} must be an array of tensor names")},
    {"unknown-tensor", EN("unknown tensor \"{name}\" (known: {known})")},
    {"not-an-index", EN("{field} must be a whole number from 0 (a sentence or head index), got {got}")},
    // Prepared runs (lab.prepare): a new X for one call, the edits of update(), a handle used after dispose().
    {"prepared-x-type", EN("{field} must be a Float32Array of B·S·dModel = {count} numbers ({shape}), got {got}")},
    {"prepared-x-length", EN("{field} has {length} numbers, but the prepared run's X {shape} needs {count}")},
    {"prepared-edits-not-object",
     EN("{field} must be {weights: {name: [[row, column, value]]}, embedding: [[token, column, value]]}, got {got}")},
    {"prepared-disposed", EN("{field}: this prepared run was disposed; prepare the config again")},
    {"prepare-needs-attention-model",
     EN("a prepared run keeps the attention layer you configure: it needs model \"attention\", not \"tiny\" (run "
        "the tiny model with lab.run)")},
    {"config-text-too-large",
     EN("the config's JSON text is over {limit} MiB (give large matrices as typed arrays, single numbers as edits)")},
    {"given-values-over-limit", EN("the given values need {need} MiB; the limit is {limit} MiB")},
    {"engine-restarting", EN("the engine is restarting after it stopped; await lab.ready and run again")},
    {"engine-out-of-memory", EN("the engine stopped (it ran out of memory) and is restarting; try a smaller setup")},
    {"engine-failed", EN("the engine stopped (it failed) and is restarting; try a smaller setup")},
    {"engine-blocked-by-csp",
     EN("the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src "
        "(not 'unsafe-eval', which would allow eval() for every script on the page)")},
    {"weights-not-fetched", EN("the weights of checkpoint {step} could not be read from {url}: {reason}")},
    {"model-not-fetched", EN("the tiny model's wasm could not be read from {url}: {reason}")},
    {"tiny-needs-server",
     EN("a page opened from a file cannot read the tiny model's files ({url}): open it from a web server (npm start, "
        "or dist/ on any static host)")},
    {"weights-not-bytes", EN("{field} must be a Uint8Array (the bytes of a safetensors file)")},
    // The <attention-lab> element's config attribute (web/element).
    {"config-attribute-json", EN("the config attribute is not valid JSON: {reason}")},
    {"config-attribute-not-object", EN("the config attribute must be a JSON object")},
    {"unknown-preset", EN("unknown preset \"{key}\" (known: {known})")},
    // Its view attributes: steps names the steps to show, head the head shown (1-based, as the tabs count).
    {"unknown-steps", EN("unknown step {got} (the steps are: {known})")},
    // chapters names the open chapters (web/view/steps/chapters.js).
    {"unknown-chapters", EN("unknown chapter {got} (the chapters are: {known})")},
    {"head-out-of-range", EN("head must be a whole number from 1 to {heads} (the number of heads), got {got}")},
    // The two steppers (kv_cache.cpp, online_softmax.cpp) and their options (web/api/index.js).
    {"stepper-needs-attention-model",
     EN("the KV cache and FlashAttention steppers walk the attention layer you configure: they need model "
        "\"attention\", not \"tiny\"")},
    {"stepper-without-diff",
     EN("the KV cache and FlashAttention steppers walk one softmax per head: differential attention's two maps are "
        "not stepped yet, so leave diff.depth empty to step")},
    {"stepper-without-mla",
     EN("the KV cache and FlashAttention steppers walk a K and a V per head, which multi-head latent attention's cache "
        "never forms: its cache step shows what it keeps; leave mla.kvRank empty to step")},
    {"decode-needs-self-attention",
     EN("the KV cache decodes a sentence against its own keys: it needs self-attention, but {field} gives a context")},
    {"decode-needs-causal",
     EN("the KV cache decodes one token at a time, so each query sees only the keys before it: it needs mask causal or "
        "causal+padding, got {got}")},
    {"decode-needs-dot-score",
     EN("the KV cache steps compute q · k against the cached keys: they need score dot, got {got}")},
    {"tile-size", EN("{field} must be a whole number from 1 (queries or keys per tile), got {got}")},
    {"too-many-tiles",
     EN("{count} tiles of {tileQueries} × {tileKeys} are more than the stepper shows (limit {limit}): choose larger "
        "tiles")},
};

std::vector<ErrorKind> buildCatalog() {
  std::vector<ErrorKind> catalog(std::begin(kEngineKinds), std::end(kEngineKinds));
  for (const JsonErrorKind& kind : jsonErrorKinds())
    catalog.push_back(
        {kind.code, kEnglishInJs
                        ? std::string()
                        : std::string("config is not valid JSON: line {line}, column {column}: ") + kind.english});
  return catalog;
}

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Calls visit(start, end, name) for every {name} in `english`.
template <typename Visit>
void forEachPlaceholder(const std::string& english, Visit visit) {
  for (size_t open = english.find('{'); open != std::string::npos; open = english.find('{', open + 1)) {
    size_t end = open + 1;
    while (end < english.size() && isNameChar(english[end])) ++end;
    if (end > open + 1 && end < english.size() && english[end] == '}')
      visit(open, end + 1, english.substr(open + 1, end - open - 1));
  }
}

}  // namespace

const std::vector<ErrorKind>& errorCatalog() {
  static const std::vector<ErrorKind> catalog = buildCatalog();
  return catalog;
}

const ErrorKind* findErrorKind(const std::string& code) {
  for (const ErrorKind& kind : errorCatalog())
    if (kind.code == code) return &kind;
  return nullptr;
}

std::vector<std::string> templateParams(const std::string& english) {
  std::vector<std::string> names;
  forEachPlaceholder(english, [&](size_t, size_t, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  });
  return names;
}

std::string fillTemplate(const std::string& english, const ErrorParams& params) {
  std::string out;
  size_t copied = 0;
  forEachPlaceholder(english, [&](size_t start, size_t end, const std::string& name) {
    for (const auto& [key, value] : params)
      if (key == name) {
        out.append(english, copied, start - copied);
        out += value;
        copied = end;
        return;
      }
  });
  return out + english.substr(copied);
}

Status fieldError(std::string field, const char* code, ErrorParams params) {
  const ErrorKind* kind = findErrorKind(code);
  std::string message = kind ? fillTemplate(kind->english, params) : code;
  return ConfigError{std::move(field), code, std::move(params), std::move(message)};
}

Warning makeWarning(const char* code, ErrorParams params) {
  const ErrorKind* kind = findErrorKind(code);
  std::string message = kind ? fillTemplate(kind->english, params) : code;
  return Warning{code, std::move(params), std::move(message)};
}

}  // namespace attention_lab
