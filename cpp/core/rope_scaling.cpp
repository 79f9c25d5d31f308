#include "rope_scaling.h"

#include <algorithm>
#include <cmath>

namespace attention_lab {

namespace {

constexpr double kPi = 3.14159265358979323846;

// base ** (torch.arange(0, dk, 2).float() / dk): the float32 exponents, the power rounded once from double
// (torch.pow in float32 is within an ulp of it).
std::vector<float> positionFrequencies(double base, int64_t dk) {
  std::vector<float> powers(static_cast<size_t>(dk / 2));
  for (int64_t i = 0; i < dk / 2; ++i) {
    const float exponent = static_cast<float>(2 * i) / static_cast<float>(dk);
    powers[static_cast<size_t>(i)] = static_cast<float>(std::pow(base, static_cast<double>(exponent)));
  }
  return powers;
}

std::vector<float> reciprocals(const std::vector<float>& x) {
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = 1.0f / x[i];
  return out;
}

// _compute_dynamic_ntk_parameters with seq_len = torch.max(position_ids) + 1 = S (an int64 tensor), so the
// new base is float32 tensor arithmetic:
//   base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
// Up to orig positions the frequencies are the init-time ones: the config's base.
float dynamicBase(double base, double factor, int64_t orig, int64_t S, int64_t dk) {
  const float length = static_cast<float>(std::max(S, orig));
  const float ratio = static_cast<float>(factor) * length / static_cast<float>(orig);
  const float grown = ratio - static_cast<float>(factor - 1.0);
  // torch.pow(float32 tensor, Python float): the exponent stays a double, the power is rounded once.
  const float power =
      static_cast<float>(std::pow(static_cast<double>(grown), static_cast<double>(dk) / static_cast<double>(dk - 2)));
  return static_cast<float>(base) * power;
}

// _compute_yarn_parameters' find_correction_dim (Python doubles):
//   (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))
double correctionDim(double rotations, int64_t dk, double base, int64_t orig) {
  return (static_cast<double>(dk) * std::log(static_cast<double>(orig) / (rotations * 2 * kPi))) / (2 * std::log(base));
}

}  // namespace

std::vector<float> inverseFrequencies(double base, int64_t dk) { return reciprocals(positionFrequencies(base, dk)); }

RopeFrequencies ropeFrequencies(const AttentionConfig& c, int64_t S, int64_t dk) {
  RopeFrequencies f;
  const int64_t half = dk / 2;
  const std::vector<float> powers = positionFrequencies(c.ropeBase, dk);  // pos_freqs
  f.unscaled = reciprocals(powers);
  f.scaled = f.unscaled;
  const float factor = static_cast<float>(c.ropeScalingFactor);
  switch (c.ropeScaling) {
    case RopeScaling::None: break;
    case RopeScaling::Linear:
      // inv_freq /= factor
      for (float& x : f.scaled) x = x / factor;
      break;
    case RopeScaling::Dynamic:
      f.ntkBase = static_cast<float>(c.ropeBase);
      if (S > c.ropeOriginalMaxPositions && dk > 2) {
        f.ntkBase = dynamicBase(c.ropeBase, c.ropeScalingFactor, c.ropeOriginalMaxPositions, S, dk);
        // inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), base a float32 tensor
        f.scaled = inverseFrequencies(static_cast<double>(f.ntkBase), dk);
      }
      break;
    case RopeScaling::Yarn: {
      // attention_factor = 0.1 * math.log(factor) + 1.0 (get_mscale; a factor below 1 is refused)
      f.attentionFactor = static_cast<float>(0.1 * std::log(c.ropeScalingFactor) + 1.0);
      // find_correction_range(beta_fast, beta_slow, dim, base, original_max_position_embeddings, truncate):
      //   if truncate: low = math.floor(low); high = math.ceil(high)
      //   return max(low, 0), min(high, dim - 1)
      double low = correctionDim(c.ropeBetaFast, dk, c.ropeBase, c.ropeOriginalMaxPositions);
      double high = correctionDim(c.ropeBetaSlow, dk, c.ropeBase, c.ropeOriginalMaxPositions);
      if (c.ropeTruncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      low = std::max(low, 0.0);
      high = std::min(high, static_cast<double>(dk - 1));
      if (low == high) high += 0.001;  // linear_ramp_factor: "Prevent singularity"
      f.extrapolation.resize(static_cast<size_t>(half));
      for (int64_t i = 0; i < half; ++i) {
        // ramp = torch.clamp((torch.arange(dim // 2).float() - low) / (high - low), 0, 1)
        const float ramp =
            std::clamp((static_cast<float>(i) - static_cast<float>(low)) / static_cast<float>(high - low), 0.0f, 1.0f);
        const float kept = 1.0f - ramp;  // inv_freq_extrapolation_factor
        const float interpolated = 1.0f / (factor * powers[static_cast<size_t>(i)]);
        // inv_freq = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
        f.scaled[static_cast<size_t>(i)] = interpolated * (1.0f - kept) + f.unscaled[static_cast<size_t>(i)] * kept;
        f.extrapolation[static_cast<size_t>(i)] = kept;
      }
      break;
    }
  }
  return f;
}

// ropeAngles [S, dk/2]:
//   inv_freq = 1.0 / (base ** (torch.arange(0, dk, 2).float() / dk))   # (dk/2,), scaled by rope.scaling
//   ropeAngles = torch.outer(torch.arange(S).float(), inv_freq)          # (S, dk/2)
void computeRopeAngles(const std::vector<float>& inverseFrequency, int64_t S, float* angles) {
  const auto half = static_cast<int64_t>(inverseFrequency.size());
  for (int64_t t = 0; t < S; ++t)
    for (int64_t i = 0; i < half; ++i)
      angles[t * half + i] = static_cast<float>(t) * inverseFrequency[static_cast<size_t>(i)];
}

// q [B, L, heads·dk] rotated in place by the angles [L, dk/2] (cos and sin each
// rounded once from double, as torch.cos/torch.sin within an ulp):
//   rotate-half: q * cos(emb) + rotate_half(q) * sin(emb), emb = cat(angles, angles),
//                rotate_half(x) = cat(-x[..., dk/2:], x[..., :dk/2])
//   interleaved: out[2i] = x[2i]·cos − x[2i+1]·sin, out[2i+1] = x[2i]·sin + x[2i+1]·cos
void rotateHeads(RopeStyle style, const float* cosines, const float* sines, float* rows, int64_t stride, int64_t B,
                 int64_t L, int64_t heads, int64_t dk) {
  const int64_t half = dk / 2;
  for (int64_t r = 0; r < B * L; ++r) {
    const int64_t t = r % L;  // the position
    const float* cs = cosines + t * half;
    const float* sn = sines + t * half;
    for (int64_t h = 0; h < heads; ++h) {
      float* x = rows + r * stride + h * dk;
      for (int64_t i = 0; i < half; ++i) {
        if (style == RopeStyle::RotateHalf) {
          const float first = x[i], second = x[i + half];
          x[i] = first * cs[i] + (-second) * sn[i];
          x[i + half] = second * cs[i] + first * sn[i];
        } else {
          const float even = x[2 * i], odd = x[2 * i + 1];
          x[2 * i] = even * cs[i] - odd * sn[i];
          x[2 * i + 1] = even * sn[i] + odd * cs[i];
        }
      }
    }
  }
}

}  // namespace attention_lab
