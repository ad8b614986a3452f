// Records with identical (x_i, y_i) contribute alpha_i times the same log density, so a
// count family can evaluate each distinct pair once with the summed weight. On count data
// with few predictors this shrinks the per-gradient work several times (the intercept-only
// negative binomial of nb_mixture: 147 distinct pairs for 1000 records) while the value
// and gradient stay the same sums. Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <map>
#include <memory>
#include <vector>

#include "models/design.hpp"
#include "ppsynth/common/cancel.hpp"

namespace ppsynth::models::detail {

class RecordGroups {
  public:
    // The groups of the rows of [X y], or null when there are more than 70% as many groups
    // as records (then the weight sums would cost more than they save).
    // cancel is polled; once it is set the result is null.
    static std::unique_ptr<const RecordGroups> make(const Eigen::MatrixXd& X,
                                                    const Eigen::VectorXd& y, bool allowSparse,
                                                    const std::atomic<bool>* cancel = nullptr) {
        std::unique_ptr<RecordGroups> out(new RecordGroups);
        out->build(X, y, allowSparse, cancel);
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
    void build(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, bool allowSparse,
               const std::atomic<bool>* cancel) {
        // Rows are keyed by their index and compared in place (lexicographically over x_i
        // then y_i), so a wide design is never copied into keys.
        const auto rowLess = [&X, &y](Eigen::Index a, Eigen::Index b) {
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                if (X(a, j) != X(b, j)) return X(a, j) < X(b, j);
            return y(a) < y(b);
        };
        std::map<Eigen::Index, Eigen::Index, decltype(rowLess)> index(rowLess);
        of_.resize(static_cast<std::size_t>(y.size()));
        std::vector<Eigen::Index> first;
        for (Eigen::Index i = 0; i < y.size(); ++i) {
            if (i % 256 == 0 && stopRequested(cancel)) return;
            auto [it, added] = index.emplace(i, static_cast<Eigen::Index>(first.size()));
            if (added) first.push_back(i);
            of_[static_cast<std::size_t>(i)] = it->second;
            // Groups only grow: once too many, grouping cannot pay off.
            if (10 * static_cast<Eigen::Index>(first.size()) > 7 * y.size()) return;
        }
        const auto groups = static_cast<Eigen::Index>(first.size());
        Eigen::MatrixXd Xg(groups, X.cols());
        y_.resize(groups);
        for (Eigen::Index g = 0; g < groups; ++g) {
            Xg.row(g) = X.row(first[static_cast<std::size_t>(g)]);
            y_(g) = y(first[static_cast<std::size_t>(g)]);
        }
        X_ = std::make_unique<const Design>(std::move(Xg), allowSparse, cancel);
    }

    std::vector<Eigen::Index> of_;  // group of record i
    std::unique_ptr<const Design> X_;
    Eigen::VectorXd y_;
};

}  // namespace ppsynth::models::detail
