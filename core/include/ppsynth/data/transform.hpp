// Transforms of the sensitive variable y for the continuous models (METHOD.md section 1).
// The likelihood, the Lipschitz bounds and the draws live on the transformed scale z;
// synthetic values are back-transformed with inverse(); identification risk uses y.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string_view>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::data {

enum class TransformKind {
    None,      // z = y
    Log,       // z = log(y); every y must be > 0
    LogShift,  // z = log(y + s), s fixed from the data by fitTransform
    Asinh,     // z = asinh(y); any real y
};

// Every kind, in the order they are offered.
inline constexpr TransformKind kTransformKinds[] = {TransformKind::None, TransformKind::Log,
                                                    TransformKind::LogShift, TransformKind::Asinh};

// "none", "log", "log-shift", "asinh". These names are a JSON contract (configs, manifests):
// never change them.
std::string_view toString(TransformKind kind);
std::optional<TransformKind> transformKindFromString(std::string_view name);

struct Transform {
    TransformKind kind = TransformKind::None;
    // s in log(y + s); 0 for every other kind.
    double shift = 0.0;

    double forward(double y) const;
    // Exact inverse of forward on its domain. For log and log-shift exp(z) may overflow to
    // +inf for an extreme synthetic draw; the caller decides what to do with it.
    double inverse(double z) const;
    // dz/dy and log |dz/dy| at y (the Jacobian of the change of scale).
    double derivative(double y) const;
    double logJacobian(double y) const;

    Eigen::VectorXd forward(const Eigen::VectorXd& y) const;
    Eigen::VectorXd inverse(const Eigen::VectorXd& z) const;

    bool operator==(const Transform&) const = default;
};

// Fixes a transform for the data y (the kept records' target values).
// LogShift: s = 1 - min(y) when min(y) <= 0, else s = 0 (our choice, METHOD.md section 1;
// the smallest value maps to log(1) = 0 and the user is shown s).
// Log: every y must be positive; otherwise the error names the first offending row and
// value and suggests "log-shift". Every y must be finite.
// `column` and `rows` only shape messages: rows[i] is the 0-based table row of y[i]
// (reported 1-based); without them, positions in y are reported.
Expected<Transform> fitTransform(TransformKind kind, std::span<const double> y,
                                 std::string_view column = {},
                                 std::span<const std::size_t> rows = {});

}  // namespace ppsynth::data
