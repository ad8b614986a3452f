#include "ppsynth/models/factory.hpp"

#include <algorithm>
#include <cmath>

#include "ppsynth/common/cancel.hpp"
#include "ppsynth/models/family_registry.hpp"

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
Status checkData(const ModelSpec& spec, const FamilyInfo& family, const Eigen::MatrixXd& X,
                 const Eigen::VectorXd& y, const std::vector<std::string>& names) {
    if (y.size() == 0) return Error{"the data have no records"};
    if (X.rows() != y.size())
        return Error{"the design matrix has " + std::to_string(X.rows()) +
                     " rows but the response has " + std::to_string(y.size())};
    if (family.predictors) {
        if (X.cols() == 0)
            return Error{"the design matrix has no columns (an intercept is needed)"};
        if (!names.empty() && names.size() != static_cast<std::size_t>(X.cols()))
            return Error{"got " + std::to_string(names.size()) + " column names for " +
                         std::to_string(X.cols()) + " design columns"};
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            if (j % kColumnsPerPoll == 0 && stopRequested(spec.cancel)) return Error::cancelled();
            for (Eigen::Index i = 0; i < X.rows(); ++i)
                if (!std::isfinite(X(i, j)))
                    return Error{"design column '" +
                                 (names.empty() ? std::to_string(j + 1)
                                                : names[static_cast<std::size_t>(j)]) +
                                 "' row " + std::to_string(i + 1) + " is not a finite number"};
        }
    }
    const bool counts = family.counts;
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
    const FamilyInfo* family = findFamily(f);
    return family && family->counts;
}

std::vector<std::string> modelFamilies() {
    std::vector<std::string> ids;
    for (const auto& f : familyRegistry()) ids.push_back(f.id);
    return ids;
}

Expected<std::unique_ptr<Model>> makeModel(const ModelSpec& spec, Eigen::MatrixXd X,
                                           Eigen::VectorXd y,
                                           std::vector<std::string> columnNames) {
    const FamilyInfo* family = findFamily(spec.family);
    if (!family)
        return Error{"unknown model family '" + spec.family + "' (expected " + familyIdList() +
                     ")"};
    if (Status s = spec.priors.validate(); !s) return s.error();
    if (family->mixture && (spec.components < 1 || spec.components > 1000))
        return Error{"the mixture needs between 1 and 1000 components, got " +
                     std::to_string(spec.components)};
    if (Status s = checkData(spec, *family, X, y, columnNames); !s) return s.error();
    auto model = family->make(spec, std::move(X), std::move(y), std::move(columnNames));
    // A model whose construction saw the flag may be incomplete: it is never returned.
    if (stopRequested(spec.cancel)) return Error::cancelled();
    return model;
}

}  // namespace ppsynth::models
