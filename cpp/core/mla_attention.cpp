#include "mla_attention.h"

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
  const float* q = m.q.data.data();
  const float* qPe = m.qPeRope.data.data();
  const float* kPe = m.kPeRope.data.data();
  const float* lat = m.latentNorm.data.data();
  const float* wUK = m.w.at("W_UK").data.data();  // [c, H·n]
  const float* wUV = m.w.at("W_UV").data.data();  // [c, H·vd]
  // scores [B, H, S, S_kv], heads first (DeepSeek's bsht transposed)
  m.scores = pool.take({B, H, S, Skv});
  float* scores = m.scores.data.data();
  if (!c.mlaAbsorb) {
    // K = cat([k_nope, k_pe.expand(-1, -1, H, -1)], -1) with k_nope, v = split(self.wkv_b(kv_norm(kv)))
    m.k = pool.take({B, S, H * qk});
    m.v = pool.take({B, S, H * vd});
    for (int64_t row = 0; row < B * S; ++row) {
      const float* cRow = lat + row * kv;
      for (int64_t h = 0; h < H; ++h) {
        float* k = m.k.data.data() + row * H * qk + h * qk;
        for (int64_t j = 0; j < n; ++j) {
          float sum = 0.0f;
          for (int64_t i = 0; i < kv; ++i) sum += cRow[i] * wUK[i * H * n + h * n + j];
          k[j] = sum;
        }
        std::copy(kPe + row * r, kPe + (row + 1) * r, k + n);
        float* v = m.v.data.data() + row * H * vd + h * vd;
        for (int64_t j = 0; j < vd; ++j) {
          float sum = 0.0f;
          for (int64_t i = 0; i < kv; ++i) sum += cRow[i] * wUV[i * H * vd + h * vd + j];
          v[j] = sum;
        }
      }
    }
    // scores = torch.einsum("bshd,bthd->bsht", cat([q_nope, q_pe]), k)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t s = 0; s < S; ++s) {
          const float* qRow = q + (b * S + s) * H * qk + h * qk;
          const float* qRope = qPe + (b * S + s) * H * r + h * r;
          for (int64_t t = 0; t < Skv; ++t) {
            const float* k = m.k.data.data() + (b * Skv + t) * H * qk + h * qk;
            float sum = 0.0f;
            for (int64_t j = 0; j < n; ++j) sum += qRow[j] * k[j];
            for (int64_t j = 0; j < r; ++j) sum += qRope[j] * k[n + j];
            scores[((b * H + h) * S + s) * Skv + t] = sum;
          }
        }
  } else {
    // q_nope = torch.einsum("bshd,hdc->bshc", q_nope, wkv_b[:, :qk_nope_head_dim])   # [B, S, H·c]
    m.qAbsorbed = pool.take({B, S, H * kv});
    for (int64_t row = 0; row < B * S; ++row)
      for (int64_t h = 0; h < H; ++h) {
        const float* qRow = q + row * H * qk + h * qk;
        float* out = m.qAbsorbed.data.data() + row * H * kv + h * kv;
        for (int64_t i = 0; i < kv; ++i) {
          float sum = 0.0f;
          for (int64_t j = 0; j < n; ++j) sum += qRow[j] * wUK[i * H * n + h * n + j];
          out[i] = sum;
        }
      }
    // scores = einsum("bshc,btc->bsht", q_nope, kv_cache) + einsum("bshr,btr->bsht", q_pe, pe_cache)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t s = 0; s < S; ++s) {
          const float* qRow = m.qAbsorbed.data.data() + (b * S + s) * H * kv + h * kv;
          const float* qRope = qPe + (b * S + s) * H * r + h * r;
          for (int64_t t = 0; t < Skv; ++t) {
            const float* cRow = lat + (b * Skv + t) * kv;
            const float* kRope = kPe + (b * Skv + t) * r;
            float latentPart = 0.0f, ropePart = 0.0f;
            for (int64_t i = 0; i < kv; ++i) latentPart += qRow[i] * cRow[i];
            for (int64_t j = 0; j < r; ++j) ropePart += qRope[j] * kRope[j];
            scores[((b * H + h) * S + s) * Skv + t] = latentPart + ropePart;
          }
        }
  }
  // scores = scores * self.softmax_scale; scores += mask; scores.softmax(dim=-1, dtype=torch.float32)
  m.scaled = pool.take({B, H, S, Skv});
  m.masked = pool.take({B, H, S, Skv});
  m.weights = pool.take({B, H, S, Skv});
  int64_t nanRows = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t s = 0; s < S; ++s) {
        const int64_t at = ((b * H + h) * S + s) * Skv;
        const float* maskRow = m.mask.data.empty() ? nullptr : m.mask.data.data() + (b * S + s) * Skv;
        scaleMaskSoftmaxRow(steps, scores + at, maskRow, Skv, m.scaled.data.data() + at, m.masked.data.data() + at,
                            m.weights.data.data() + at);
        if (std::isnan(m.weights.data[static_cast<size_t>(at)])) ++nanRows;
      }
  // averagedWeights = weights.sum(dim=1) / H
  m.averagedWeights = pool.take({B, S, Skv});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < S * Skv; ++i) {
      float sum = 0.0f;
      for (int64_t h = 0; h < H; ++h) sum += m.weights.data[static_cast<size_t>((b * H + h) * S * Skv + i)];
      m.averagedWeights.data[static_cast<size_t>(b * S * Skv + i)] = sum / static_cast<float>(H);
    }
  // context [B, H, S, vd]
  m.context = pool.take({B, H, S, vd});
  const float* w = m.weights.data.data();
  if (!c.mlaAbsorb) {
    // x = torch.einsum("bsht,bthd->bshd", scores, v_cache)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t j = 0; j < vd; ++j) {
            float sum = 0.0f;
            for (int64_t t = 0; t < Skv; ++t)
              sum += w[((b * H + h) * S + s) * Skv + t] *
                     m.v.data[static_cast<size_t>((b * Skv + t) * H * vd + h * vd + j)];
            m.context.data[static_cast<size_t>(((b * H + h) * S + s) * vd + j)] = sum;
          }
  } else {
    // x = torch.einsum("bsht,btc->bshc", scores, kv_cache); x = torch.einsum("bshc,hdc->bshd", x, wkv_b[:, -v:])
    m.latentContext = pool.take({B, S, H * kv});
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t s = 0; s < S; ++s) {
          float* out = m.latentContext.data.data() + (b * S + s) * H * kv + h * kv;
          for (int64_t i = 0; i < kv; ++i) {
            float sum = 0.0f;
            for (int64_t t = 0; t < Skv; ++t) sum += w[((b * H + h) * S + s) * Skv + t] * lat[(b * Skv + t) * kv + i];
            out[i] = sum;
          }
          for (int64_t j = 0; j < vd; ++j) {
            float sum = 0.0f;
            for (int64_t i = 0; i < kv; ++i) sum += out[i] * wUV[i * H * vd + h * vd + j];
            m.context.data[static_cast<size_t>(((b * H + h) * S + s) * vd + j)] = sum;
          }
        }
  }
  // x.flatten(2): concat [B, S, H·vd]; self.wo(...): output [B, S, D]
  m.concat = pool.take({B, S, H * vd});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t s = 0; s < S; ++s) {
        const float* from = m.context.data.data() + ((b * H + h) * S + s) * vd;
        std::copy(from, from + vd, m.concat.data.data() + (b * S + s) * H * vd + h * vd);
      }
  m.output = pool.take({B, S, d.D});
  gemm(B * S, d.D, H * vd, m.concat.data.data(), H * vd, m.w.at("W_O").data.data(), d.D, false, nullptr,
       m.output.data.data(), d.D);
  return nanRows;
}

int64_t mlaFloats(const AttentionConfig& c, const Dims& d) {
  const MlaSizes z = mlaSizesOf(c);
  const int64_t B = d.B, S = d.S, H = d.H, rows = B * S, maps = B * H * S * d.Skv;
  // Q, latent, K_pe, Q_pe_rope, K_pe_rope, latentNorm, the angles and their cos and sin
  int64_t floats = rows * (H * z.qkHeadDim() + z.kvRank + z.rope + H * z.rope + z.rope + z.kvRank) + 3 * S * z.rope / 2;
  floats += c.mlaAbsorb ? 2 * rows * H * z.kvRank : rows * H * (z.qkHeadDim() + z.value);
  floats += 4 * maps + B * S * d.Skv;                  // scores, scaled, masked, weights; averagedWeights
  floats += B * H * S * z.value + rows * H * z.value;  // context, concat
  floats += rows * d.D;                                // output
  floats += gemmScratchFloats(std::max<int64_t>(std::max(H * z.qkHeadDim(), z.kvRank), d.D), std::max(d.D, H * z.value),
                              false);
  return floats;
}

}  // namespace attention_lab
