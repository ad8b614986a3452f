#include "ppsynth/data/patterns.hpp"

#include <algorithm>
#include <numeric>

namespace ppsynth::data {

std::vector<std::size_t> Patterns::sizes() const {
    std::vector<std::size_t> out;
    out.reserve(members.size());
    for (const auto& m : members) out.push_back(m.size());
    return out;
}

Expected<Patterns> computePatterns(const Table& table, const std::vector<std::string>& known,
                                   std::span<const std::size_t> rows) {
    const std::size_t n = rows.size();
    std::vector<const Column*> cols;
    for (const auto& name : known) {
        const Column* c = table.find(name);
        if (!c) return Error{"known variable '" + name + "' is not a column of the table"};
        if (c->type() != ColumnType::Categorical)
            return Error{"known variable '" + name +
                         "' must be a categorical predictor; change its type to categorical or "
                         "remove it from the known variables"};
        for (std::size_t r : rows) {
            if (r >= c->size())
                return Error{"row " + std::to_string(r + 1) + " is beyond the table's " +
                             std::to_string(c->size()) + " rows"};
            if (c->isMissing(r))
                return Error{"known variable '" + name + "' row " + std::to_string(r + 1) +
                             " is missing; choose listwise deletion or fix the file"};
        }
        cols.push_back(c);
    }

    Patterns out;
    out.id.assign(n, 0);
    if (n == 0) return out;
    // Sort records by their level codes (record index breaks ties, so members come out
    // ascending), then cut runs of equal codes into patterns.
    const auto sameKey = [&](std::size_t a, std::size_t b) {
        return std::all_of(cols.begin(), cols.end(),
                           [&](const Column* c) { return c->code(rows[a]) == c->code(rows[b]); });
    };
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        for (const Column* c : cols) {
            const auto ca = c->code(rows[a]), cb = c->code(rows[b]);
            if (ca != cb) return ca < cb;
        }
        return a < b;
    });
    for (std::size_t k = 0; k < n; ++k) {
        if (k == 0 || !sameKey(order[k - 1], order[k])) {
            out.members.emplace_back();
            std::string label;
            for (const Column* c : cols) {
                if (!label.empty()) label += ", ";
                label += c->name() + "=" + c->display(rows[order[k]]);
            }
            out.labels.push_back(cols.empty() ? "all records" : label);
        }
        out.members.back().push_back(order[k]);
        out.id[order[k]] = static_cast<std::int32_t>(out.members.size() - 1);
    }
    for (const auto& m : out.members)
        if (m.size() == 1) ++out.singletons;
    return out;
}

}  // namespace ppsynth::data
