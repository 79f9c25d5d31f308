// RoPE's inverse frequencies, with the long-context scalings of transformers'
// modeling_rope_utils.py (rope.scaling): linear position interpolation,
// dynamic NTK and YaRN, for a head of dk features and S positions.
//
//   inv_freq = 1.0 / (base ** (torch.arange(0, dk, 2).float() / dk))            # (dk/2,) unscaled
//   linear:  inv_freq / factor                                                   # attention factor 1
//   dynamic: base' = base * ((factor * S / orig) - (factor - 1)) ** (dk / (dk - 2)) when S > orig
//   yarn:    interpolation 1 / (factor * pos_freqs) and extrapolation 1 / pos_freqs blended by a ramp
//            over [low, high] (beta_fast, beta_slow rotations); cos and sin times 0.1·ln(factor) + 1
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"

namespace attention_lab {

struct RopeFrequencies {
  std::vector<float> unscaled;  // [dk/2] 1 / base^(2i/dk): ropeInvFreqBase
  std::vector<float> scaled;    // [dk/2] what the angles use: ropeInvFreq (= unscaled without scaling)
  // YaRN: 1 where a frequency is kept (extrapolated), 0 where it is interpolated, between on the ramp.
  std::vector<float> extrapolation;
  float attentionFactor = 1.0f;  // cos and sin are multiplied by it (YaRN's mscale; 1 otherwise)
  float ntkBase = 0.0f;          // dynamic NTK: the base the frequencies used (the config's when S <= orig)
};

// inv_freq = 1.0 / (base ** (torch.arange(0, dk, 2).float() / dk)), unscaled (dk/2,): the float32 exponents,
// the power rounded once from double (torch.pow in float32 is within an ulp of it), its reciprocal.
std::vector<float> inverseFrequencies(double base, int64_t dk);

// The frequencies of config `c` (ropeBase, ropeScaling) for dk features at S positions (the padded length).
RopeFrequencies ropeFrequencies(const AttentionConfig& c, int64_t S, int64_t dk);

// ropeAngles [S, dk/2] = torch.outer(torch.arange(S).float(), inv_freq) into `angles`.
void computeRopeAngles(const std::vector<float>& inverseFrequency, int64_t S, float* angles);

// Rows [B·L] of `heads` heads of dk features (rows `stride` apart) rotated in place by cos and sin [L, dk/2]:
// rotate-half (pairs i, i + dk/2) or interleaved (pairs 2i, 2i + 1).
void rotateHeads(RopeStyle style, const float* cosines, const float* sines, float* rows, int64_t stride, int64_t B,
                 int64_t L, int64_t heads, int64_t dk);

}  // namespace attention_lab
