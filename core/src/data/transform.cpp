#include "ppsynth/data/transform.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

std::string_view toString(TransformKind kind) {
    switch (kind) {
        case TransformKind::None:
            return "none";
        case TransformKind::Log:
            return "log";
        case TransformKind::LogShift:
            return "log-shift";
        case TransformKind::Asinh:
            return "asinh";
    }
    return "none";
}

std::optional<TransformKind> transformKindFromString(std::string_view name) {
    for (auto k :
         {TransformKind::None, TransformKind::Log, TransformKind::LogShift, TransformKind::Asinh})
        if (toString(k) == name) return k;
    return std::nullopt;
}

double Transform::forward(double y) const {
    switch (kind) {
        case TransformKind::None:
            return y;
        case TransformKind::Log:
            return std::log(y);
        case TransformKind::LogShift:
            return std::log(y + shift);
        case TransformKind::Asinh:
            return std::asinh(y);
    }
    return y;
}

double Transform::inverse(double z) const {
    switch (kind) {
        case TransformKind::None:
            return z;
        case TransformKind::Log:
            return std::exp(z);
        case TransformKind::LogShift:
            return std::exp(z) - shift;
        case TransformKind::Asinh:
            return std::sinh(z);
    }
    return z;
}

double Transform::derivative(double y) const {
    switch (kind) {
        case TransformKind::None:
            return 1.0;
        case TransformKind::Log:
            return 1.0 / y;
        case TransformKind::LogShift:
            return 1.0 / (y + shift);
        case TransformKind::Asinh:
            return 1.0 / std::hypot(1.0, y);
    }
    return 1.0;
}

double Transform::logJacobian(double y) const {
    switch (kind) {
        case TransformKind::None:
            return 0.0;
        case TransformKind::Log:
            return -std::log(y);
        case TransformKind::LogShift:
            return -std::log(y + shift);
        case TransformKind::Asinh:
            return -std::log(std::hypot(1.0, y));
    }
    return 0.0;
}

Eigen::VectorXd Transform::forward(const Eigen::VectorXd& y) const {
    return y.unaryExpr([this](double v) { return forward(v); });
}

Eigen::VectorXd Transform::inverse(const Eigen::VectorXd& z) const {
    return z.unaryExpr([this](double v) { return inverse(v); });
}

Expected<Transform> fitTransform(TransformKind kind, std::span<const double> y,
                                 std::string_view column, std::span<const std::size_t> rows) {
    const auto where = [&](std::size_t i) {
        std::string w = column.empty() ? std::string() : "column '" + std::string(column) + "' ";
        return w + "row " + std::to_string((rows.empty() ? i : rows[i]) + 1);
    };
    for (std::size_t i = 0; i < y.size(); ++i)
        if (!std::isfinite(y[i])) return Error{where(i) + ": the value is not a finite number"};

    Transform t{kind, 0.0};
    if (kind == TransformKind::Log) {
        for (std::size_t i = 0; i < y.size(); ++i)
            if (y[i] <= 0)
                return Error{where(i) +
                             ": the log transform needs positive values but this value is " +
                             formatNumber(y[i]) +
                             "; choose the 'log-shift' transform (log(y + s) with s = 1 - min(y)) "
                             "instead"};
    } else if (kind == TransformKind::LogShift && !y.empty()) {
        const auto lo = std::min_element(y.begin(), y.end());
        if (*lo <= 0) t.shift = 1.0 - *lo;
        // Below -2^53 the 1 in s = 1 - min(y) is lost and log(min(y) + s) = -inf.
        if (!std::isfinite(t.forward(*lo)))
            return Error{where(static_cast<std::size_t>(lo - y.begin())) + ": the value " +
                         formatNumber(*lo) +
                         " is too far below zero for the 'log-shift' transform; rescale the "
                         "variable or choose 'asinh'"};
    }
    return t;
}

}  // namespace ppsynth::data
