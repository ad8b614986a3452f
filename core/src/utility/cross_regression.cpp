#include "ppsynth/utility/cross_regression.hpp"

#include <cmath>

#include "ppsynth/utility/ci_overlap.hpp"
#include "ppsynth/utility/combining_rules.hpp"
#include "utility/coefficient_overlap.hpp"

namespace ppsynth::utility {

Expected<RegressionUtility> regressionUtilityPerDataset(
    const Eigen::MatrixXd& Xo, std::span<const double> y,
    const std::vector<Eigen::MatrixXd>& syntheticX,
    const std::vector<std::vector<double>>& syntheticY, const std::vector<std::string>& names,
    double level) {
    const std::size_t m = syntheticX.size();
    if (m < 2)
        return Error{"the regression utility needs at least 2 synthetic datasets (m = " +
                     std::to_string(m) + ") for the combining rules"};
    if (syntheticY.size() != m)
        return Error{"the regression utility got " + std::to_string(m) + " designs but " +
                     std::to_string(syntheticY.size()) + " synthetic responses"};
    auto original = fitOls(Xo, y, names, level);
    if (!original) return original.error().prefixed("the confidential data: ");
    const auto p = static_cast<std::size_t>(Xo.cols());
    std::vector<std::vector<double>> q(p, std::vector<double>(m)), u(p, std::vector<double>(m));
    for (std::size_t l = 0; l < m; ++l) {
        const std::string what = "synthetic dataset " + std::to_string(l + 1) + ": ";
        if (syntheticX[l].cols() != Xo.cols())
            return Error{what + "its design has " + std::to_string(syntheticX[l].cols()) +
                         " columns, the confidential one " + std::to_string(Xo.cols())};
        auto fit = fitOls(syntheticX[l], syntheticY[l], names, level);
        if (!fit) return fit.error().prefixed(what);
        for (std::size_t j = 0; j < p; ++j) {
            const auto jj = static_cast<Eigen::Index>(j);
            q[j][l] = fit->coefficients(jj);
            u[j][l] = fit->covariance(jj, jj);
        }
    }
    RegressionUtility out;
    for (std::size_t j = 0; j < p; ++j) {
        CoefficientUtility c;
        c.name = original->names[j];
        c.original = original->coefficients(static_cast<Eigen::Index>(j));
        c.originalInterval = original->intervals[j];
        if (auto s = detail::combineCoefficient(c, q[j], u[j], level); !s) return s.error();
        out.meanOverlap += c.overlap / static_cast<double>(p);
        out.coefficients.push_back(std::move(c));
    }
    return out;
}

}  // namespace ppsynth::utility
