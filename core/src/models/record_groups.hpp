// Records with identical (x_i, y_i) contribute alpha_i times the same log density, so a
// count family can evaluate each distinct pair once with the summed weight. On count data
// with few predictors this shrinks the per-gradient work several times (the intercept-only
// negative binomial of nb_mixture: 147 distinct pairs for 1000 records) while the value
// and gradient stay the same sums. Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <map>
#include <memory>
#include <vector>

#include "models/design.hpp"

namespace ppsynth::models::detail {

class RecordGroups {
  public:
    // The groups of the rows of [X y], or null when there are more than 70% as many groups
    // as records (then the weight sums would cost more than they save).
    static std::unique_ptr<const RecordGroups> make(const Eigen::MatrixXd& X,
                                                    const Eigen::VectorXd& y, bool allowSparse) {
        std::unique_ptr<RecordGroups> out(new RecordGroups);
        out->build(X, y, allowSparse);
        if (!out->X_) return nullptr;
        return out;
    }

    const Design& design() const { return *X_; }
    const Eigen::VectorXd& response() const { return y_; }
    // Summed weight per group.
    void sum(const Eigen::VectorXd& alpha, Eigen::VectorXd& out) const {
        out.setZero(y_.size());
        for (Eigen::Index i = 0; i < alpha.size(); ++i)
            out(of_[static_cast<std::size_t>(i)]) += alpha(i);
    }

  private:
    RecordGroups() = default;
    void build(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, bool allowSparse) {
        std::map<std::vector<double>, Eigen::Index> index;
        of_.resize(static_cast<std::size_t>(y.size()));
        std::vector<Eigen::Index> first;
        std::vector<double> key(static_cast<std::size_t>(X.cols() + 1));
        for (Eigen::Index i = 0; i < y.size(); ++i) {
            for (Eigen::Index j = 0; j < X.cols(); ++j) key[static_cast<std::size_t>(j)] = X(i, j);
            key.back() = y(i);
            auto [it, added] = index.emplace(key, static_cast<Eigen::Index>(first.size()));
            if (added) first.push_back(i);
            of_[static_cast<std::size_t>(i)] = it->second;
        }
        const auto groups = static_cast<Eigen::Index>(first.size());
        if (10 * groups > 7 * y.size()) return;
        Eigen::MatrixXd Xg(groups, X.cols());
        y_.resize(groups);
        for (Eigen::Index g = 0; g < groups; ++g) {
            Xg.row(g) = X.row(first[static_cast<std::size_t>(g)]);
            y_(g) = y(first[static_cast<std::size_t>(g)]);
        }
        X_ = std::make_unique<const Design>(std::move(Xg), allowSparse);
    }

    std::vector<Eigen::Index> of_;  // group of record i
    std::unique_ptr<const Design> X_;
    Eigen::VectorXd y_;
};

}  // namespace ppsynth::models::detail
