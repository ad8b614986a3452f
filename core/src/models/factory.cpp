#include "ppsynth/models/factory.hpp"

#include <algorithm>
#include <cmath>

#include "ppsynth/models/negbin_regression.hpp"
#include "ppsynth/models/normal_mixture.hpp"
#include "ppsynth/models/normal_regression.hpp"
#include "ppsynth/models/poisson_means.hpp"
#include "ppsynth/models/poisson_regression.hpp"

namespace ppsynth::models {

namespace {

std::string num(double v) {
    std::string s = std::to_string(v);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

// Rows are reported 1-based, as a person counts them.
Status checkData(const ModelSpec& spec, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                 const std::vector<std::string>& names) {
    if (y.size() == 0) return Error{"the data have no records"};
    if (X.rows() != y.size())
        return Error{"the design matrix has " + std::to_string(X.rows()) +
                     " rows but the response has " + std::to_string(y.size())};
    if (spec.family != "poisson-means") {
        if (X.cols() == 0)
            return Error{"the design matrix has no columns (an intercept is needed)"};
        if (!names.empty() && names.size() != static_cast<std::size_t>(X.cols()))
            return Error{"got " + std::to_string(names.size()) + " column names for " +
                         std::to_string(X.cols()) + " design columns"};
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                if (!std::isfinite(X(i, j)))
                    return Error{"design column '" +
                                 (names.empty() ? std::to_string(j + 1)
                                                : names[static_cast<std::size_t>(j)]) +
                                 "' row " + std::to_string(i + 1) + " is not a finite number"};
    }
    const bool counts = isCountFamily(spec.family);
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const double v = y(i);
        if (!std::isfinite(v))
            return Error{"the response at row " + std::to_string(i + 1) +
                         " is not a finite number"};
        if (counts && (v < 0.0 || v != std::floor(v)))
            return Error{"the " + spec.family +
                         " model needs non-negative whole numbers, but row " +
                         std::to_string(i + 1) + " has " + num(v)};
    }
    return Status::ok();
}

}  // namespace

bool isCountFamily(const std::string& f) {
    return f == "poisson-means" || f == "poisson" || f == "negbin";
}

std::vector<std::string> modelFamilies() {
    return {"poisson-means", "poisson", "negbin", "normal", "normal-mixture"};
}

Expected<std::unique_ptr<Model>> makeModel(const ModelSpec& spec, Eigen::MatrixXd X,
                                           Eigen::VectorXd y,
                                           std::vector<std::string> columnNames) {
    const auto families = modelFamilies();
    if (std::find(families.begin(), families.end(), spec.family) == families.end())
        return Error{"unknown model family '" + spec.family +
                     "' (expected poisson-means, poisson, negbin, normal or normal-mixture)"};
    if (Status s = spec.priors.validate(); !s) return s.error();
    if (spec.family == "normal-mixture" && (spec.components < 1 || spec.components > 1000))
        return Error{"the mixture needs between 1 and 1000 components, got " +
                     std::to_string(spec.components)};
    if (Status s = checkData(spec, X, y, columnNames); !s) return s.error();

    std::unique_ptr<Model> m;
    if (spec.family == "poisson-means")
        m = std::make_unique<PoissonMeans>(std::move(y), spec.priors);
    else if (spec.family == "poisson")
        m = std::make_unique<PoissonRegression>(std::move(X), std::move(y), std::move(columnNames),
                                                spec.priors);
    else if (spec.family == "negbin")
        m = std::make_unique<NegBinRegression>(std::move(X), std::move(y), std::move(columnNames),
                                               spec.priors);
    else if (spec.family == "normal")
        m = std::make_unique<NormalRegression>(std::move(X), std::move(y), std::move(columnNames),
                                               spec.priors);
    else
        m = std::make_unique<NormalMixture>(std::move(X), std::move(y), spec.components,
                                            std::move(columnNames), spec.priors);
    return m;
}

}  // namespace ppsynth::models
