// The leak guarantee's checks (METHOD.md section 9): what may enter a release bundle.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/release/bundle.hpp"

namespace ppsynth::release {

namespace {

// Parts of a column name that mark a confidential quantity: weights alpha, Lipschitz
// bounds f_i / Delta_i, identification risks, pairwise weights, record log-likelihoods
// l_{s,i}, the original data.
const std::set<std::string>& confidentialParts() {
    static const std::set<std::string> parts = {
        "alpha",    "lipschitz", "ir",           "risk",   "weight",       "weights",
        "pairwise", "original",  "confidential", "loglik", "loglikelihood"};
    return parts;
}

// Whole names that are METHOD.md's symbols for record-level quantities (f_i, Delta_i =
// Delta_{alpha,x_i}, ft_i, at_i, T_i, c_i of the sigmoid scheme, l_{s,i}): too short or too
// common as parts to refuse wherever they appear.
const std::set<std::string>& confidentialSymbols() {
    static const std::set<std::string> names = {
        "f",   "f_i", "ft_i",  "delta", "delta_i", "delta_x_i",     "at_i",
        "t_i", "c_i", "l_s_i", "l_i",   "log_lik", "log_likelihood"};
    return names;
}

// The code's names for record-level quantities (study::RecordLevel, privacy/), compared
// without separators so recordDelta, record_delta and RECORDDELTA all match.
const std::set<std::string>& confidentialCodeNames() {
    static const std::set<std::string> names = {"recorddelta", "recordbound", "whackamole"};
    return names;
}

std::string withoutSeparators(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
    return s;
}

// Lower case, parts joined by single '_': "Delta_{i}" -> "delta_i", "recordDelta" ->
// "record_delta" (a lower-case letter or digit followed by a capital starts a part).
std::string normalizedName(const std::string& name) {
    std::string s;
    unsigned char previous = 0;
    for (unsigned char c : name) {
        const bool partStart =
            std::isupper(c) && (std::islower(previous) || std::isdigit(previous));
        if (!std::isalnum(c) || partStart) {
            if (!s.empty() && s.back() != '_') s += '_';
        }
        if (std::isalnum(c)) s += static_cast<char>(std::tolower(c));
        previous = c;
    }
    if (!s.empty() && s.back() == '_') s.pop_back();
    return s;
}

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

// The guarantee the bundle states must have been measured: epsilon = 0 (or unset) would
// claim that the data were not used at all.
Status validatePrivacy(const Manifest::Privacy& p) {
    const double eps = p.epsilonPerDataset;
    if (!std::isfinite(eps) || eps <= 0)
        return Error{"the manifest's epsilon per dataset is " +
                     (std::isnan(eps) ? std::string("not set") : data::formatNumber(eps)) +
                     "; it must be a finite number > 0, the epsilon_x measured for the "
                     "synthesizer (was it filled in from the run?)"};
    if (p.deltaEstimate.empty())
        return Error{
            "the manifest does not say how Delta (and so epsilon) was estimated "
            "(e.g. \"max over draws\"); fill in its delta estimate from the run"};
    return {};
}

}  // namespace

std::vector<std::string> sensitiveColumns(const ReleaseRequest& request) {
    return request.targets.empty() ? std::vector<std::string>{request.target} : request.targets;
}

std::string confidentialNameReason(const std::string& columnName) {
    const std::string lower = normalizedName(columnName);
    if (confidentialSymbols().count(lower)) return lower;
    if (confidentialCodeNames().count(withoutSeparators(lower))) return lower;
    std::size_t start = 0;
    while (start <= lower.size()) {
        std::size_t end = lower.find('_', start);
        if (end == std::string::npos) end = lower.size();
        const std::string part = lower.substr(start, end - start);
        if (confidentialParts().count(part)) return part;
        start = end + 1;
    }
    return {};
}

Status validateReleaseRequest(const ReleaseRequest& r) {
    if (r.datasets.empty()) return Error{"the release has no synthetic datasets"};
    if (r.target.empty()) return Error{"the release names no target (synthetic) column"};
    if (r.formats.empty())
        return Error{"the release asks for no file format; pick csv, sav or dta"};
    for (auto f : r.formats)
        if (f != data::FileFormat::Csv && f != data::FileFormat::Sav && f != data::FileFormat::Dta)
            return Error{"a release is written as csv, sav or dta, not " +
                         std::string(data::toString(f))};
    if (Status s = validatePrivacy(r.manifest.privacy); !s) return s;

    // The allow-list: no duplicates, every synthetic column in it, nothing that looks
    // confidential.
    const std::vector<std::string> synthetic = sensitiveColumns(r);
    if (!r.targets.empty() && r.targets.front() != r.target)
        return Error{"the release's target " + quoted(r.target) +
                     " is not the first of its sensitive variables (" + quoted(r.targets.front()) +
                     ")"};
    auto isSynthetic = [&](const std::string& name) {
        return std::find(synthetic.begin(), synthetic.end(), name) != synthetic.end();
    };
    std::set<std::string> seen;
    for (const auto& name : r.releasedColumns) {
        if (!seen.insert(name).second)
            return Error{"column " + quoted(name) + " is listed twice for release"};
        if (const std::string why = confidentialNameReason(name); !why.empty())
            return Error{"column " + quoted(name) + " looks like a confidential quantity ('" + why +
                         "': weights, bounds, risks and original values are never released); "
                         "if it is an ordinary predictor, rename it in the data"};
    }
    for (const auto& name : synthetic) {
        if (seen.count(name)) continue;
        if (synthetic.size() == 1)
            return Error{"the target " + quoted(r.target) +
                         " must be among the released columns (it is the synthetic one)"};
        return Error{"the sensitive variable " + quoted(name) +
                     " must be among the released columns (it is synthetic)"};
    }

    // The confidential values each released column is compared with: every sensitive
    // variable's that the caller gave.
    struct Original {
        std::string name;
        const std::vector<double>* values;
    };
    std::vector<Original> originals;
    for (std::size_t k = 0; k < synthetic.size(); ++k) {
        const std::vector<double>* y =
            k < r.originalTargets.size() ? r.originalTargets[k] : nullptr;
        if (!y && k == 0) y = r.originalTarget;
        if (y) originals.push_back({synthetic[k], y});
    }

    const data::Table& first = r.datasets.front();
    const std::size_t n = first.rowCount();
    if (n == 0) return Error{"synthetic dataset 1 has no rows"};
    for (const auto& o : originals)
        if (o.values->size() != n)
            return Error{synthetic.size() == 1
                             ? "the original target has " + std::to_string(o.values->size()) +
                                   " values, the synthetic datasets have " + std::to_string(n) +
                                   " rows"
                             : "the confidential values of " + quoted(o.name) + " number " +
                                   std::to_string(o.values->size()) +
                                   ", the synthetic datasets have " + std::to_string(n) + " rows"};
    for (std::size_t l = 0; l < r.datasets.size(); ++l) {
        const data::Table& t = r.datasets[l];
        const std::string which = "synthetic dataset " + std::to_string(l + 1);
        if (t.rowCount() != n)
            return Error{which + " has " + std::to_string(t.rowCount()) + " rows, dataset 1 has " +
                         std::to_string(n)};
        for (const auto& name : r.releasedColumns) {
            const data::Column* c = t.find(name);
            if (!c) return Error{which + " has no column " + quoted(name)};
            if (isSynthetic(name)) {
                if (c->type() != data::ColumnType::Numeric && c->type() != data::ColumnType::Count)
                    return Error{
                        which + ": " +
                        (synthetic.size() == 1 ? "the target " : "the sensitive variable ") +
                        quoted(name) + " must be numeric or a count"};
            } else if (l > 0 && !(*c == *first.find(name))) {
                return Error{
                    which + ": column " + quoted(name) +
                    " differs from dataset 1; partially synthetic datasets share "
                    "their predictors, only the " +
                    (synthetic.size() == 1 ? std::string("target is") : "sensitive variables are") +
                    " synthetic"};
            }
            if (c->type() != data::ColumnType::Numeric && c->type() != data::ColumnType::Count)
                continue;
            for (const auto& o : originals) {
                const auto& y = *o.values;
                bool same = true;
                for (std::size_t i = 0; i < n && same; ++i)
                    same = !c->isMissing(i) && c->value(i) == y[i];
                if (!same) continue;
                if (synthetic.size() == 1)
                    return Error{which + ": column " + quoted(name) +
                                 " equals the confidential target in every row; it cannot be "
                                 "released (was the target replaced by synthetic values?)"};
                return Error{which + ": column " + quoted(name) +
                             " equals the confidential values of the sensitive variable " +
                             quoted(o.name) +
                             " in every row; it cannot be released (was it replaced by "
                             "synthetic values?)"};
            }
        }
    }
    return {};
}

}  // namespace ppsynth::release
