#include "mla_attention.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gemm.h"
#include "rope_scaling.h"

namespace attention_lab {

using stages::Dims;
using stages::Intermediates;

MlaSizes mlaSizesOf(const AttentionConfig& c) {
  return {c.mlaKvRank.value_or(0), c.mlaNopeDim.value_or(0), c.mlaRopeDim.value_or(0), c.mlaValueDim.value_or(0)};
}

double mlaSoftmaxScale(const AttentionConfig& c) {
  return std::pow(static_cast<double>(mlaSizesOf(c).qkHeadDim()), -0.5);
}

namespace {

// X [B·S, D] @ W [D, cols] -> [B, S, cols]
Tensor project(const Dims& d, const float* x, const Tensor& w, BufferPool& pool) {
  const int64_t cols = w.shape[1];
  Tensor out = pool.take({d.B, d.S, cols});
  gemm(d.B * d.S, cols, d.D, x, d.D, w.data.data(), cols, false, nullptr, out.data.data(), cols);
  return out;
}

// latentNorm = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True) + 1e-6) * kv_norm, row by row.
Tensor rmsNormRows(const Tensor& latent, const Tensor& weight, BufferPool& pool) {
  const int64_t cols = latent.shape.back(), rows = static_cast<int64_t>(latent.data.size()) / cols;
  Tensor out = pool.take(latent.shape);
  for (int64_t i = 0; i < rows; ++i) {
    const float* x = latent.data.data() + i * cols;
    float* y = out.data.data() + i * cols;
    float sumOfSquares = 0.0f;
    for (int64_t j = 0; j < cols; ++j) sumOfSquares += x[j] * x[j];
    const float inverseRms = 1.0f / std::sqrt(sumOfSquares / static_cast<float>(cols) + 1e-6f);
    for (int64_t j = 0; j < cols; ++j) y[j] = x[j] * inverseRms * weight.data[static_cast<size_t>(j)];
  }
  return out;
}

// apply_rotary_emb on `rows` [B, S, heads·r] in place: cos and sin of the angles [S, r/2], each rounded once
// from double (rope.scaling is refused with MLA, so no attention factor).
void rotate(RopeStyle style, const Tensor& angles, const Dims& d, int64_t heads, int64_t r, Tensor& rows) {
  const size_t cells = angles.data.size();
  std::vector<float> cosines(cells), sines(cells);
  for (size_t i = 0; i < cells; ++i) {
    cosines[i] = static_cast<float>(std::cos(static_cast<double>(angles.data[i])));
    sines[i] = static_cast<float>(std::sin(static_cast<double>(angles.data[i])));
  }
  rotateHeads(style, cosines.data(), sines.data(), rows.data.data(), heads * r, d.B, d.S, heads, r);
}

// The sizes and the tensors both paths read.
struct MlaInputs {
  int64_t B, S, Skv, H, n, r, vd, kv, qk;
  const float *q, *qPe, *kPe, *latent, *wUK, *wUV;  // Q, Q_pe_rope, K_pe_rope, latentNorm, W_UK, W_UV
};

// Naive: K = cat([k_nope, k_pe.expand(-1, -1, H, -1)], -1) with k_nope, v = split(self.wkv_b(kv_norm(kv)))
//   K [B, S_kv, H·(n + r)], V [B, S_kv, H·vd]
void keysValues(const MlaInputs& in, float* K, float* V) {
  for (int64_t row = 0; row < in.B * in.Skv; ++row) {
    const float* c = in.latent + row * in.kv;
    for (int64_t h = 0; h < in.H; ++h) {
      float* k = K + (row * in.H + h) * in.qk;
      for (int64_t j = 0; j < in.n; ++j) {
        float sum = 0.0f;
        for (int64_t i = 0; i < in.kv; ++i) sum += c[i] * in.wUK[(i * in.H + h) * in.n + j];
        k[j] = sum;
      }
      std::copy(in.kPe + row * in.r, in.kPe + (row + 1) * in.r, k + in.n);
      float* v = V + (row * in.H + h) * in.vd;
      for (int64_t j = 0; j < in.vd; ++j) {
        float sum = 0.0f;
        for (int64_t i = 0; i < in.kv; ++i) sum += c[i] * in.wUV[(i * in.H + h) * in.vd + j];
        v[j] = sum;
      }
    }
  }
}

// Absorbed: q_nope = torch.einsum("bshd,hdc->bshc", q_nope, wkv_b[:, :qk_nope_head_dim])   # [B, S, H·c]
void absorbQueries(const MlaInputs& in, float* qAbsorbed) {
  for (int64_t row = 0; row < in.B * in.S; ++row)
    for (int64_t h = 0; h < in.H; ++h) {
      const float* qRow = in.q + (row * in.H + h) * in.qk;
      float* out = qAbsorbed + (row * in.H + h) * in.kv;
      for (int64_t i = 0; i < in.kv; ++i) {
        float sum = 0.0f;
        for (int64_t j = 0; j < in.n; ++j) sum += qRow[j] * in.wUK[(i * in.H + h) * in.n + j];
        out[i] = sum;
      }
    }
}

// scores [B, H, S, S_kv] (heads first, DeepSeek's bsht transposed), before the scale:
//   naive:    torch.einsum("bshd,bthd->bsht", cat([q_nope, q_pe]), K)
//   absorbed: torch.einsum("bshc,btc->bsht", Q_absorbed, kv_cache) + torch.einsum("bshr,btr->bsht", q_pe, pe_cache)
void scoresOf(const MlaInputs& in, bool absorb, const float* K, const float* qAbsorbed, float* scores) {
  for (int64_t b = 0; b < in.B; ++b)
    for (int64_t h = 0; h < in.H; ++h)
      for (int64_t s = 0; s < in.S; ++s) {
        const float* qRow = in.q + ((b * in.S + s) * in.H + h) * in.qk;
        const float* qRope = in.qPe + ((b * in.S + s) * in.H + h) * in.r;
        const float* qLatent = absorb ? qAbsorbed + ((b * in.S + s) * in.H + h) * in.kv : nullptr;
        float* out = scores + ((b * in.H + h) * in.S + s) * in.Skv;
        for (int64_t t = 0; t < in.Skv; ++t) {
          const int64_t key = b * in.Skv + t;
          if (!absorb) {
            const float* k = K + (key * in.H + h) * in.qk;
            float sum = 0.0f;
            for (int64_t j = 0; j < in.n; ++j) sum += qRow[j] * k[j];
            for (int64_t j = 0; j < in.r; ++j) sum += qRope[j] * k[in.n + j];
            out[t] = sum;
          } else {
            float latentPart = 0.0f, ropePart = 0.0f;
            for (int64_t i = 0; i < in.kv; ++i) latentPart += qLatent[i] * in.latent[key * in.kv + i];
            for (int64_t j = 0; j < in.r; ++j) ropePart += qRope[j] * in.kPe[key * in.r + j];
            out[t] = latentPart + ropePart;
          }
        }
      }
}

// context [B, H, S, vd] from weights [B, H, S, S_kv]:
//   naive:    x = torch.einsum("bsht,bthd->bshd", scores, v_cache)
//   absorbed: x = torch.einsum("bsht,btc->bshc", scores, kv_cache)          # latentContext [B, S, H·c]
//             x = torch.einsum("bshc,hdc->bshd", x, wkv_b[:, -self.v_head_dim:])
void contextOf(const MlaInputs& in, bool absorb, const float* weights, const float* V, float* latentContext,
               float* context) {
  for (int64_t b = 0; b < in.B; ++b)
    for (int64_t h = 0; h < in.H; ++h)
      for (int64_t s = 0; s < in.S; ++s) {
        const float* w = weights + ((b * in.H + h) * in.S + s) * in.Skv;
        float* out = context + ((b * in.H + h) * in.S + s) * in.vd;
        if (!absorb) {
          for (int64_t j = 0; j < in.vd; ++j) {
            float sum = 0.0f;
            for (int64_t t = 0; t < in.Skv; ++t) sum += w[t] * V[((b * in.Skv + t) * in.H + h) * in.vd + j];
            out[j] = sum;
          }
          continue;
        }
        float* mixed = latentContext + ((b * in.S + s) * in.H + h) * in.kv;
        for (int64_t i = 0; i < in.kv; ++i) {
          float sum = 0.0f;
          for (int64_t t = 0; t < in.Skv; ++t) sum += w[t] * in.latent[(b * in.Skv + t) * in.kv + i];
          mixed[i] = sum;
        }
        for (int64_t j = 0; j < in.vd; ++j) {
          float sum = 0.0f;
          for (int64_t i = 0; i < in.kv; ++i) sum += mixed[i] * in.wUV[(i * in.H + h) * in.vd + j];
          out[j] = sum;
        }
      }
}

// x.flatten(2) after x (B, S, H, vd): concat [B, S, H·vd] from context [B, H, S, vd]; self.wo(...): output [B, S, D]
void outputOf(const MlaInputs& in, const Dims& d, const float* context, const Tensor& wO, float* concat,
              float* output) {
  for (int64_t b = 0; b < in.B; ++b)
    for (int64_t h = 0; h < in.H; ++h)
      for (int64_t s = 0; s < in.S; ++s) {
        const float* from = context + ((b * in.H + h) * in.S + s) * in.vd;
        std::copy(from, from + in.vd, concat + ((b * in.S + s) * in.H + h) * in.vd);
      }
  gemm(in.B * in.S, d.D, in.H * in.vd, concat, in.H * in.vd, wO.data.data(), d.D, false, nullptr, output, d.D);
}

// scaled = scores * softmax_scale; masked (scores += mask); weights = softmax, row by row. Returns the NaN rows.
int64_t softmaxOf(const MlaInputs& in, const ScoreRowSteps& steps, const Tensor& mask, const float* scores,
                  float* scaled, float* masked, float* weights) {
  int64_t nanRows = 0;
  for (int64_t b = 0; b < in.B; ++b)
    for (int64_t h = 0; h < in.H; ++h)
      for (int64_t s = 0; s < in.S; ++s) {
        const int64_t at = ((b * in.H + h) * in.S + s) * in.Skv;
        const float* maskRow = mask.data.empty() ? nullptr : mask.data.data() + (b * in.S + s) * in.Skv;
        scaleMaskSoftmaxRow(steps, scores + at, maskRow, in.Skv, scaled + at, masked + at, weights + at);
        if (std::isnan(weights[at])) ++nanRows;
      }
  return nanRows;
}

}  // namespace

int64_t mlaAttend(const AttentionConfig& c, const Dims& d, const ScoreRowSteps& steps, BufferPool& pool,
                  Intermediates& m) {
  const MlaSizes z = mlaSizesOf(c);
  const int64_t B = d.B, S = d.S, Skv = d.Skv, H = d.H, n = z.nope, r = z.rope, vd = z.value, kv = z.kvRank;
  const int64_t qk = z.qkHeadDim();
  const float* x = m.x.data.data();
  // q = self.wq(x); kv, k_pe = torch.split(self.wkv_a(x), [kv_lora_rank, qk_rope_head_dim], dim=-1)
  m.q = project(d, x, m.w.at("W_Q"), pool);         // [B, S, H·(n + r)]
  m.latent = project(d, x, m.w.at("W_DKV"), pool);  // [B, S, c]
  m.kPe = project(d, x, m.w.at("W_KR"), pool);      // [B, S, r]
  // q_pe = apply_rotary_emb(q_pe, freqs_cis); k_pe = apply_rotary_emb(k_pe.unsqueeze(2), freqs_cis)
  const RopeFrequencies f = ropeFrequencies(c, S, r);
  m.ropeAngles = pool.take({S, r / 2});
  computeRopeAngles(f.scaled, S, m.ropeAngles.data.data());
  m.qPeRope = pool.take({B, S, H * r});
  for (int64_t row = 0; row < B * S; ++row)
    for (int64_t h = 0; h < H; ++h) {
      const float* from = m.q.data.data() + row * H * qk + h * qk + n;
      std::copy(from, from + r, m.qPeRope.data.data() + row * H * r + h * r);
    }
  rotate(c.ropeStyle, m.ropeAngles, d, H, r, m.qPeRope);
  m.kPeRope = pool.take({B, S, r});
  std::copy(m.kPe.data.begin(), m.kPe.data.end(), m.kPeRope.data.begin());
  rotate(c.ropeStyle, m.ropeAngles, d, 1, r, m.kPeRope);
  // self.kv_norm(kv): the cached latent c
  m.latentNorm = rmsNormRows(m.latent, m.w.at("kv_norm"), pool);
  const MlaInputs in{B,
                     S,
                     Skv,
                     H,
                     n,
                     r,
                     vd,
                     kv,
                     qk,
                     m.q.data.data(),
                     m.qPeRope.data.data(),
                     m.kPeRope.data.data(),
                     m.latentNorm.data.data(),
                     m.w.at("W_UK").data.data(),
                     m.w.at("W_UV").data.data()};
  // Both paths' own tensors: the naive one's K and V, the absorbed one's Q_absorbed (and latentContext below).
  m.k = pool.take({B, Skv, H * qk});
  m.v = pool.take({B, Skv, H * vd});
  keysValues(in, m.k.data.data(), m.v.data.data());
  m.qAbsorbed = pool.take({B, S, H * kv});
  absorbQueries(in, m.qAbsorbed.data.data());
  m.latentContext = pool.take({B, S, H * kv});
  // The path mla.absorb chooses: every stage from the scores on.
  const bool absorb = c.mlaAbsorb;
  const std::vector<int64_t> maps = {B, H, S, Skv};
  m.scores = pool.take(maps);
  m.scaled = pool.take(maps);
  m.masked = pool.take(maps);
  m.weights = pool.take(maps);
  m.context = pool.take({B, H, S, vd});
  m.concat = pool.take({B, S, H * vd});
  m.output = pool.take({B, S, d.D});
  scoresOf(in, absorb, m.k.data.data(), m.qAbsorbed.data.data(), m.scores.data.data());
  const int64_t nanRows = softmaxOf(in, steps, m.mask, m.scores.data.data(), m.scaled.data.data(), m.masked.data.data(),
                                    m.weights.data.data());
  contextOf(in, absorb, m.weights.data.data(), m.v.data.data(), m.latentContext.data.data(), m.context.data.data());
  outputOf(in, d, m.context.data.data(), m.w.at("W_O"), m.concat.data.data(), m.output.data.data());
  // The other path, for the page's comparison: its scores and output kept, its other stages scratch.
  m.otherPathScores = pool.take(maps);
  m.otherPathOutput = pool.take({B, S, d.D});
  Tensor scaled = pool.take(maps), masked = pool.take(maps), weights = pool.take(maps);
  Tensor context = pool.take({B, H, S, vd}), concat = pool.take({B, S, H * vd});
  Tensor mixed = pool.take({B, S, H * kv});
  scoresOf(in, !absorb, m.k.data.data(), m.qAbsorbed.data.data(), m.otherPathScores.data.data());
  softmaxOf(in, steps, m.mask, m.otherPathScores.data.data(), scaled.data.data(), masked.data.data(),
            weights.data.data());
  contextOf(in, !absorb, weights.data.data(), m.v.data.data(), absorb ? mixed.data.data() : m.latentContext.data.data(),
            context.data.data());
  outputOf(in, d, context.data.data(), m.w.at("W_O"), concat.data.data(), m.otherPathOutput.data.data());
  for (Tensor* t : {&scaled, &masked, &weights, &context, &concat, &mixed}) pool.give(std::move(t->data));
  // averagedWeights = weights.sum(dim=1) / H
  m.averagedWeights = pool.take({B, S, Skv});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < S * Skv; ++i) {
      float sum = 0.0f;
      for (int64_t h = 0; h < H; ++h) sum += m.weights.data[static_cast<size_t>((b * H + h) * S * Skv + i)];
      m.averagedWeights.data[static_cast<size_t>(b * S * Skv + i)] = sum / static_cast<float>(H);
    }
  return nanRows;
}

int64_t mlaFloats(const AttentionConfig& c, const Dims& d) {
  const MlaSizes z = mlaSizesOf(c);
  const int64_t B = d.B, S = d.S, H = d.H, rows = B * S, maps = B * H * S * d.Skv;
  // Q, latent, K_pe, Q_pe_rope, K_pe_rope, latentNorm; the angles and their cos and sin
  int64_t floats = rows * (H * z.qkHeadDim() + 2 * z.kvRank + 2 * z.rope + H * z.rope) + 3 * S * z.rope / 2;
  // K, V, Q_absorbed and latentContext (the absorbed path's latentContext once more as scratch of the other path)
  floats += rows * H * (z.qkHeadDim() + z.value) + 3 * rows * H * z.kvRank;
  // Both paths: scores, scaled, masked, weights, context, concat, output; averagedWeights
  floats += 2 * (4 * maps + B * H * S * z.value + rows * H * z.value + rows * d.D) + B * S * d.Skv;
  floats += std::max(gemmScratchFloats(std::max({H * z.qkHeadDim(), z.kvRank, z.rope}), d.D, false),
                     gemmScratchFloats(d.D, H * z.value, false));
  return floats;
}

}  // namespace attention_lab
