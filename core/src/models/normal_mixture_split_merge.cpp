// Split-merge moves for the mixture's Gibbs sampler (after Jain and Neal 2004, with the
// sequential allocation of Dahl 2003). Why: the blocked sweep moves records one label at a
// time, so a small component is born or dies only over thousands of sweeps (on
// income_survey the number of occupied components kept an autocorrelation of 0.4 at lag 200),
// and chains disagree on how the small components split the records.
//
// The move acts on the sweep's extended target (normal_mixture_gibbs.cpp)
//   pi(theta, z) = prior(theta) prod_{i labelled} L_i^(alpha_i - 1) pi_{z_i} f_{z_i}(y_i).
// The anchors: a component uniformly among the occupied ones and a record a uniformly in it;
// then, with probability 1/2, b among its other records (a split), else a component uniformly
// among the other occupied ones and b in it (a merge). Both directions' selection
// probabilities enter the ratio. (Records chosen uniformly, as Jain and Neal do, put both
// anchors in the dominant component 85% of the time on income_survey: no split of a small
// component was ever proposed.) If a and b share component j, a split
// proposes to move part of j's records to an empty component k (chosen uniformly among the
// empty ones): a stays in j, b goes to k, the others are allocated in a random order, each by
// the predictive of a normal regression on the records already placed on each side. Then each
// side's beta is drawn from its weighted complete-data conditional given sigma_j, its sigma
// given that beta (exact scale draw), and the pair's share of weight pi_j + pi_k is split by a
// Beta(c + N_k, c + N_j). If a and b are in different components j and k, a merge proposes
// the reverse: every record of k to j, j's beta (given sigma_j) and sigma drawn given all of
// them, k's parameters from the prior, and k's share of pi_j + pi_k from a Beta(c, c + N).
// The Metropolis-Hastings ratio uses the exact densities of both directions (allocation
// probabilities included), so the move is exact whatever its acceptance rate. Measured: on
// tst_mixture_gibbs's one-cluster case about 90% of splits and 20% of merges are accepted; on
// income_survey (K = 20, 4 x 2000 sweeps) 43 of 3394 splits and 48 of 4038 merges (with
// uniform anchors: none of about 10,000 splits, 2% of merges, nearly all of a small component
// into the dominant one), for about a third more time per sweep.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "models/design.hpp"
#include "models/log_zero.hpp"
#include "models/mixture_cache.hpp"
#include "models/mixture_gibbs_parts.hpp"
#include "models/prior_terms.hpp"
#include "models/scale_draw.hpp"
#include "ppsynth/models/normal_mixture.hpp"

namespace ppsynth::models {
namespace {

using detail::logAddExp;

// Splits a share exp(logW) of the weights as Beta(shapeK, shapeJ) between k and j (in logs,
// from two Gamma draws, so tiny shares stay finite).
void splitWeight(double logW, double shapeK, double shapeJ, double& logPiK, double& logPiJ,
                 Rng& rng) {
    const double gk = detail::logGammaVariate(shapeK, rng);
    const double gj = detail::logGammaVariate(shapeJ, rng);
    const double total = logAddExp(gk, gj);
    logPiK = logW + gk - total;
    logPiJ = logW + gj - total;
}

// One side of the sequential allocation: a normal regression with sigma fixed and
// beta ~ Normal(0, diag tau^2), updated record by record (Sherman-Morrison on the inverse
// precision), giving each next record's predictive density.
class Side {
  public:
    Side(const detail::Design& X, const Eigen::VectorXd& tau, double logSigma)
        : X_(X), invVar_(std::exp(-2.0 * logSigma)), sigma2_(std::exp(2.0 * logSigma)) {
        Pinv_ = tau.array().square().matrix().asDiagonal();
        b_.setZero(tau.size());
        v_.resize(tau.size());
    }
    // log Normal(y_i | predictive mean, predictive variance).
    double logPredictive(Eigen::Index i, double y) {
        project(i);
        const double var = sigma2_ + std::max(xv_, 0.0);
        const double r = y - v_.dot(b_);
        return -detail::kLogSqrt2Pi - 0.5 * std::log(var) - 0.5 * r * r / var;
    }
    void add(Eigen::Index i, double y, double alpha) {
        project(i);
        const double a = alpha * invVar_;
        Pinv_.noalias() -= (a / (1.0 + a * std::max(xv_, 0.0))) * v_ * v_.transpose();
        addRow(i, a * y, b_);
        count += alpha;
    }
    double count = 0.0;

  private:
    // v = Pinv x_i and xv = x_i' v.
    void project(Eigen::Index i) {
        v_.setZero();
        if (X_.isSparse()) {
            for (int e = X_.rowStart()[i]; e < X_.rowStart()[i + 1]; ++e)
                v_ += X_.value()[e] * Pinv_.col(X_.columnIndex()[e]);
        } else {
            v_.noalias() = Pinv_ * X_.dense().row(i).transpose();
        }
        xv_ = 0.0;
        addRow(i, 1.0, v_, &xv_);
    }
    // out += w x_i, or (dot given) *dot = x_i' out.
    void addRow(Eigen::Index i, double w, Eigen::VectorXd& out, double* dot = nullptr) const {
        if (X_.isSparse()) {
            for (int e = X_.rowStart()[i]; e < X_.rowStart()[i + 1]; ++e) {
                const double x = X_.value()[e];
                if (dot != nullptr)
                    *dot += x * out(X_.columnIndex()[e]);
                else
                    out(X_.columnIndex()[e]) += w * x;
            }
            return;
        }
        if (dot != nullptr)
            *dot = X_.dense().row(i).dot(out);
        else
            out += w * X_.dense().row(i).transpose();
    }

    const detail::Design& X_;
    double invVar_, sigma2_;
    Eigen::MatrixXd Pinv_;
    Eigen::VectorXd b_, v_;
    double xv_ = 0.0;
};

// The sequential allocation of S's records between j (toK = false) and k (toK = true): a to
// j, b to k, then the others in `order`, each to a side with probability proportional to
// (N_side + c) times its predictive density. draw: toK is drawn; else it is scored. Returns
// the log probability of the allocation.
double allocate(const detail::Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                Eigen::Index a, Eigen::Index b, const std::vector<Eigen::Index>& order,
                double logSigma, const Eigen::VectorXd& tau, double c, bool draw,
                std::vector<char>& toK, Rng& rng) {
    Side sj(X, tau, logSigma), sk(X, tau, logSigma);
    sj.add(a, y(a), alpha(a));
    sk.add(b, y(b), alpha(b));
    if (draw) toK.assign(order.size(), 0);
    double logQ = 0.0;
    for (std::size_t t = 0; t < order.size(); ++t) {
        const Eigen::Index i = order[t];
        const double lj = std::log(sj.count + c) + sj.logPredictive(i, y(i));
        const double lk = std::log(sk.count + c) + sk.logPredictive(i, y(i));
        const double total = logAddExp(lj, lk);
        if (draw) toK[t] = std::log(detail::uniformOpen(rng)) < lk - total ? 1 : 0;
        logQ += (toK[t] ? lk : lj) - total;
        (toK[t] ? sk : sj).add(i, y(i), alpha(i));
    }
    return logQ;
}

// log Normal(beta | 0, diag tau^2) and, unless sigma is fixed, sigma's half-t on log scale.
double componentLogPrior(const Eigen::VectorXd& beta, double logSigma, const Eigen::VectorXd& tau,
                         const Priors& priors) {
    double lp =
        -(static_cast<double>(beta.size()) * detail::kLogSqrt2Pi + tau.array().log().sum()) -
        0.5 * (beta.array() / tau.array()).square().sum();
    if (!priors.fixedSigma)
        lp += detail::logHalfTOnLog(logSigma, priors.sigmaDf, priors.sigmaScale).value;
    return lp;
}

// One side's parameters given its records: beta from its conditional given the reference
// sigma, then sigma given beta. Draws them (draw = true) or scores the given ones; returns
// the log proposal density.
double componentProposal(const detail::Design& X, const Eigen::VectorXd& y,
                         const Eigen::VectorXd& alpha, const std::vector<Eigen::Index>& members,
                         double logSigmaRef, const Eigen::VectorXd& tau, const Priors& priors,
                         bool draw, Eigen::VectorXd& beta, double& logSigma, Rng& rng) {
    const detail::ComponentStats stats = detail::componentStats(X, y, alpha, members);
    const detail::CoefficientConditional cond(stats, logSigmaRef, tau);
    if (!cond.ok()) return kNegInf;
    if (draw) beta = cond.draw(rng);
    double lq = cond.logDensity(beta);
    if (priors.fixedSigma) return lq;
    const double ss = detail::residualSquares(X, y, alpha, members, beta);
    if (draw) {
        auto uniform = [&rng] { return detail::uniformOpen(rng); };
        logSigma = std::log(
            detail::drawScale(stats.count, ss, priors.sigmaDf, priors.sigmaScale, uniform));
    }
    return lq +
           detail::scaleLogDensity(stats.count, ss, priors.sigmaDf, priors.sigmaScale, logSigma);
}

// The parts of log pi(theta, z) that a move of components j and k changes: every labelled
// record's complete-data term, the Dirichlet on pi_j and pi_k, and the two components' priors.
double logExtendedTarget(bool plain, const Eigen::VectorXd& alpha,
                         const std::vector<Eigen::Index>& z, const detail::MixtureCache& cache,
                         double c, Eigen::Index j, Eigen::Index k, const Eigen::MatrixXd& B,
                         const Eigen::VectorXd& logSigma, const Eigen::VectorXd& tau,
                         const Priors& priors) {
    const Eigen::ArrayXd& logPi = cache.logWeights();
    double lp = (c - 1.0) * (logPi(j) + logPi(k)) +
                componentLogPrior(B.col(j), logSigma(j), tau, priors) +
                componentLogPrior(B.col(k), logSigma(k), tau, priors);
    // Every labelled alpha_i 1 (the sweep's shortcut): (alpha_i - 1) L_i is 0 wherever L_i is
    // finite, so the term is summed without L, which the cache then need not hold. L_i is
    // not finite exactly where a term of its log-sum-exp is +inf or NaN (all -inf makes the
    // label's own term -inf): such a record refuses the state, as 0 * L_i would.
    const Eigen::ArrayXXd& D = cache.densities();
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // Usually no term is +inf or NaN anywhere (a pass down each contiguous column); else each
    // labelled record's row is checked.
    bool bounded = plain;  // every term below +inf, none NaN
    for (Eigen::Index col = 0; bounded && col < D.cols(); ++col)
        bounded = (logPi(col) + D.col(col) < kInf).all();
    for (std::size_t i = 0; i < z.size(); ++i) {
        const Eigen::Index zi = z[i];
        if (zi < 0) continue;
        const auto r = static_cast<Eigen::Index>(i);
        if (plain && !bounded) {
            for (Eigen::Index col = 0; col < D.cols(); ++col)
                if (!(logPi(col) + D(r, col) < kInf)) return kNegInf;
        }
        const double term =
            (plain ? 0.0 : (alpha(r) - 1.0) * cache.logLik()(r)) + logPi(zi) + D(r, zi);
        if (!std::isfinite(term)) return kNegInf;
        lp += term;
    }
    return lp;
}

}  // namespace

bool NormalMixture::splitMerge(const Eigen::VectorXd& alpha, detail::SplitMergeState& s,
                               Rng& rng) const {
    const Eigen::Index K = components();
    std::vector<Eigen::Index> occupied;
    for (Eigen::Index k = 0; k < K; ++k)
        if (s.labels.occupied(k)) occupied.push_back(k);
    if (occupied.empty()) return false;
    auto pick = [&](std::size_t count) {
        return std::min(count - 1, static_cast<std::size_t>(detail::uniformOpen(rng) *
                                                            static_cast<double>(count)));
    };
    auto member = [&](Eigen::Index comp, std::size_t t) {
        return s.labels.members[static_cast<std::size_t>(comp)][t];
    };
    auto size = [&](Eigen::Index comp) {
        return s.labels.members[static_cast<std::size_t>(comp)].size();
    };
    const std::size_t ca = pick(occupied.size());
    const Eigen::Index j = occupied[ca];
    const std::size_t ia = pick(size(j));
    const Eigen::Index a = member(j, ia);
    const bool split = detail::uniformOpen(rng) < 0.5;
    Eigen::Index b = -1, kMerge = -1;
    if (split) {
        if (size(j) < 2) return false;
        std::size_t ib = pick(size(j) - 1);
        if (ib >= ia) ++ib;
        b = member(j, ib);
    } else {
        if (occupied.size() < 2) return false;
        std::size_t cb = pick(occupied.size() - 1);
        if (cb >= ca) ++cb;
        kMerge = occupied[cb];
        b = member(kMerge, pick(size(kMerge)));
    }

    std::vector<Eigen::Index> empties;
    for (Eigen::Index k = 0; k < K; ++k)
        if (!s.labels.occupied(k)) empties.push_back(k);
    if (split && empties.empty()) return false;
    const Eigen::Index k = split ? empties[pick(empties.size())] : kMerge;
    // The split state's (Y) and the merged state's (X) number of empty components.
    const double emptyMerged = static_cast<double>(empties.size()) + (split ? 0.0 : 1.0);

    // S = the records of j and k; the others in a random order.
    std::vector<Eigen::Index> S = s.labels.members[static_cast<std::size_t>(j)];
    const auto& Sk = s.labels.members[static_cast<std::size_t>(k)];
    S.insert(S.end(), Sk.begin(), Sk.end());
    std::vector<Eigen::Index> order;
    for (Eigen::Index i : S)
        if (i != a && i != b) order.push_back(i);
    for (std::size_t t = order.size(); t > 1; --t) std::swap(order[t - 1], order[pick(t)]);

    // Proposed state: columns j and k, their sigmas and weights, and S's labels.
    Eigen::MatrixXd B = s.B;
    Eigen::VectorXd ls = s.logSigma;
    Eigen::ArrayXd logPi = s.cache.logWeights();
    std::vector<Eigen::Index> z = s.labels.z;
    const double logW = logAddExp(logPi(j), logPi(k));
    Eigen::VectorXd beta;
    double logForward = 0.0, logReverse = 0.0;

    // Scores or draws the split state (Y: By, lsY, logPiY, zY; written when drawing) from the
    // merged one (X): allocation, both sides' parameters, the Beta share, and the choice of k
    // among X's empty components.
    auto splitProposal = [&](bool draw, Eigen::MatrixXd& By, Eigen::VectorXd& lsY,
                             Eigen::ArrayXd& logPiY, std::vector<Eigen::Index>& zY,
                             double logSigmaRef) {
        std::vector<char> toK;
        if (!draw) {
            toK.resize(order.size());
            for (std::size_t t = 0; t < order.size(); ++t)
                toK[t] = zY[static_cast<std::size_t>(order[t])] == k ? 1 : 0;
        }
        double lq = allocate(*X_, y_, alpha, a, b, order, logSigmaRef, s.tau, s.c, draw, toK, rng) -
                    std::log(emptyMerged);
        std::vector<Eigen::Index> mj{a}, mk{b};
        for (std::size_t t = 0; t < order.size(); ++t) (toK[t] ? mk : mj).push_back(order[t]);
        if (draw) {
            for (Eigen::Index i : mj) zY[static_cast<std::size_t>(i)] = j;
            for (Eigen::Index i : mk) zY[static_cast<std::size_t>(i)] = k;
        }
        double countJ = 0.0, countK = 0.0;
        for (Eigen::Index i : mj) countJ += alpha(i);
        for (Eigen::Index i : mk) countK += alpha(i);
        for (const auto& [col, members] : {std::pair{j, &mj}, std::pair{k, &mk}}) {
            beta = By.col(col);
            lq += componentProposal(*X_, y_, alpha, *members, logSigmaRef, s.tau, priors_, draw,
                                    beta, lsY(col), rng);
            if (draw) By.col(col) = beta;
        }
        if (draw) splitWeight(logW, s.c + countK, s.c + countJ, logPiY(k), logPiY(j), rng);
        return lq + detail::logBetaDensity(logPiY(k) - logW, logPiY(j) - logW, s.c + countK,
                                           s.c + countJ);
    };
    // Scores or draws the merged state (X: Bx, lsX, logPiX) from the split one: j's
    // parameters given all of S (beta given the reference sigma), k's from the prior, k's
    // share from Beta(c, c + N).
    auto mergeProposal = [&](bool draw, Eigen::MatrixXd& Bx, Eigen::VectorXd& lsX,
                             Eigen::ArrayXd& logPiX, double logSigmaRef) {
        double count = 0.0;
        for (Eigen::Index i : S) count += alpha(i);
        beta = Bx.col(j);
        double lq = componentProposal(*X_, y_, alpha, S, logSigmaRef, s.tau, priors_, draw, beta,
                                      lsX(j), rng);
        if (draw) {
            Bx.col(j) = beta;
            Bx.col(k) = detail::priorCoefficients(s.tau, rng);
            if (!priors_.fixedSigma)
                lsX(k) = detail::logHalfTVariate(priors_.sigmaDf, priors_.sigmaScale, rng);
            splitWeight(logW, s.c, s.c + count, logPiX(k), logPiX(j), rng);
        }
        lq += componentLogPrior(Bx.col(k), lsX(k), s.tau, priors_);
        return lq + detail::logBetaDensity(logPiX(k) - logW, logPiX(j) - logW, s.c, s.c + count);
    };

    // The current state, scored by the reverse move (B, ls, logPi and z become the proposal).
    Eigen::MatrixXd Bnow = s.B;
    Eigen::VectorXd lsNow = s.logSigma;
    Eigen::ArrayXd logPiNow = logPi;
    std::vector<Eigen::Index> zNow = s.labels.z;
    if (split) {
        // X is the current state; its reverse merge uses Y's sigma_j as the reference.
        logForward = splitProposal(true, B, ls, logPi, z, lsNow(j));
        logReverse = mergeProposal(false, Bnow, lsNow, logPiNow, ls(j));
    } else {
        // Y is the current state; the merge is drawn, its reverse split scored.
        logForward = mergeProposal(true, B, ls, logPi, lsNow(j));
        for (Eigen::Index i : S) z[static_cast<std::size_t>(i)] = j;
        logReverse = splitProposal(false, Bnow, lsNow, logPiNow, zNow, ls(j));
    }
    if (!std::isfinite(logForward) || !std::isfinite(logReverse) || !ls.allFinite()) return false;
    // The anchors' selection probabilities differ between the two states (component counts
    // and sizes change): the split's in X, the merge's in Y.
    {
        const std::vector<Eigen::Index>& zY = split ? z : s.labels.z;
        double nJ = 0.0, nK = 0.0;
        for (Eigen::Index i : S) (zY[static_cast<std::size_t>(i)] == k ? nK : nJ) += 1.0;
        const double nS = nJ + nK;
        const double occY = static_cast<double>(occupied.size()) + (split ? 1.0 : 0.0);
        const double selectSplit =
            -std::log(occY - 1.0) - std::log(nS) - std::log(2.0) - std::log(nS - 1.0);
        const double selectMerge =
            -std::log(occY) - std::log(nJ) - std::log(2.0) - std::log(occY - 1.0) - std::log(nK);
        logForward += split ? selectSplit : selectMerge;
        logReverse += split ? selectMerge : selectSplit;
    }

    // The proposed state's likelihood cache: columns j and k afresh.
    Eigen::ArrayXXd D = s.cache.densities();
    Eigen::VectorXd mean;
    for (const Eigen::Index col : {j, k}) {
        X_->times(B.col(col), mean);
        D.col(col) = detail::normalLogDensities(y_, mean, ls(col));
    }
    detail::MixtureCache next(std::move(D), logPi, !s.plain);
    const double logRatio =
        logExtendedTarget(s.plain, alpha, z, next, s.c, j, k, B, ls, s.tau, priors_) -
        logExtendedTarget(s.plain, alpha, s.labels.z, s.cache, s.c, j, k, s.B, s.logSigma, s.tau,
                          priors_) +
        logReverse - logForward;
    if (!detail::acceptLog(logRatio, rng)) return false;
    s.B = B;
    s.logSigma = ls;
    s.cache = std::move(next);
    s.labels.z = std::move(z);
    s.labels.index(alpha, K);
    return true;
}

}  // namespace ppsynth::models
