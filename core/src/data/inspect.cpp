#include "ppsynth/data/inspect.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

namespace {

// The words of a column name: split at anything but letters and digits and where a lower
// case letter meets an upper case one ("caseID" -> case, id; "person_id" -> person, id).
std::vector<std::string> nameWords(const std::string& name) {
    std::vector<std::string> words(1);
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (!std::isalnum(c)) {
            if (!words.back().empty()) words.emplace_back();
            continue;
        }
        if (i > 0 && std::isupper(c) && std::islower(static_cast<unsigned char>(name[i - 1])) &&
            !words.back().empty())
            words.emplace_back();
        words.back() += static_cast<char>(std::tolower(c));
    }
    if (words.back().empty()) words.pop_back();
    return words;
}

// Whether one of the name's words is in `words`.
bool hasWord(const std::string& name, const std::set<std::string>& words) {
    const auto parts = nameWords(name);
    return std::any_of(parts.begin(), parts.end(),
                       [&](const std::string& w) { return words.count(w) > 0; });
}

// Named like a record identifier: a word such as id, row, serial, record or respondent.
bool idLikeName(const std::string& name) {
    static const std::set<std::string> idWords = {
        "id",     "row",      "rowid",  "rownum",   "rownames",   "rowname", "rownumber",
        "serial", "serialno", "record", "recordid", "respondent", "respid",  "index",
        "obs",    "case",     "caseid", "seqn",     "uid",        "uuid"};
    return hasWord(name, idWords);
}

// Named like the identifier of a unit that may span rows: a household's persons, a person
// measured again in a long file (hhid, person_id, SERIALNO in a person file).
bool unitIdName(const std::string& name) {
    static const std::set<std::string> unitWords = {"id",       "hhid",   "pid",    "hid",
                                                    "personid", "caseid", "serial", "serialno",
                                                    "respid",   "uid",    "uuid",   "seqn"};
    return hasWord(name, unitWords);
}

// The first column of an export that carries the row names: R's write.csv writes them
// under an empty header ("column_1" here), readr's read_csv calls that column "...1",
// pandas "Unnamed: 0", Rdatasets "rownames". Row names need not be whole numbers (R's
// make.unique gives "7.1", reshape "1978.1") nor all numbers ("87a").
bool exportRowNames(const std::string& name) {
    return name == "column_1" || name == "...1" || name == "Unnamed: 0" || name == "rownames";
}

// Statistics of a numeric or count column; also returns the exact distinct count.
// `first`: the table's first column, where R and pandas put row names and the index.
std::size_t summarizeNumbers(const Column& c, ColumnSummary& s, bool first) {
    std::vector<double> v;
    v.reserve(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.isMissing(i)) continue;
        if (std::isfinite(c.value(i)))
            v.push_back(c.value(i));
        else
            ++s.nonFinite;
    }
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    // Two-pass mean and variance: stable for large magnitudes such as incomes.
    const double mu = mean(v);
    s.mean = mu;
    if (v.size() > 1) s.sd = standardDeviation(v);
    const std::size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (n >= 3) {
        double m2 = 0, m3 = 0;
        for (double x : v) {
            const double d = x - mu;
            m2 += d * d;
            m3 += d * d * d;
        }
        m2 /= static_cast<double>(n);
        m3 /= static_cast<double>(n);
        if (m2 > 0) s.skewness = m3 / std::pow(m2, 1.5);
    }
    const auto distinct = static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
    // An identifier: complete, whole numbers, all distinct, and either a run like 1..n or a
    // name that says so ("id", "person_id", "caseID"); or the row names of an R or pandas
    // export in the first column (read.csv's "X" only when whole: X is also a variable's
    // name), which are no run once a subset keeps the original row numbers.
    const bool whole = std::all_of(v.begin(), v.end(), [](double x) { return x == std::floor(x); });
    const bool allDistinct = distinct == v.size();
    const bool complete = v.size() == c.size();
    const bool run = *s.max - *s.min + 1 == static_cast<double>(v.size());
    const bool named = idLikeName(c.name());
    // Row names "1.1" and "1.10" are one number: only an unnamed column (which a file without
    // a header also gives) must be all distinct.
    const bool rowNames = first && exportRowNames(c.name()) && v.size() >= 2 &&
                          v.size() + c.unreadCells().size() == c.size() &&
                          (allDistinct || c.name() != "column_1");
    const bool unit = complete && whole && !allDistinct && unitIdName(c.name());
    s.looksLikeId = rowNames || unit ||
                    (complete && whole && allDistinct && v.size() >= 2 &&
                     (run || named || (first && c.name() == "X")));
    if (unit && !rowNames) {
        s.idReason = "identifier: whole numbers " + formatNumber(*s.min) + ".." +
                     formatNumber(*s.max) +
                     " named like one, repeated across the rows of one unit (a household's "
                     "persons, a person measured again); a label, not data about it";
        return distinct;
    }
    if (s.looksLikeId)
        s.idReason = "identifier: " + std::string(allDistinct ? "all distinct " : "") +
                     (whole ? "whole numbers " : "values ") + formatNumber(*s.min) + ".." +
                     formatNumber(*s.max) +
                     (rowNames || !(named || run)
                          ? ", in the first column under the name R or pandas give row names"
                      : named ? ", and named like one"
                              : ", one per row") +
                     "; a record's label, not data about it";
    return distinct;
}

std::size_t distinctTexts(const Column& c) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < c.size(); ++i)
        if (!c.isMissing(i)) seen.insert(c.texts()[i]);
    return seen.size();
}

// SuggestedRoles::transform for the chosen target.
void suggestTransform(const ColumnSummary& s, SuggestedRoles& r) {
    if (!s.median || !s.max || !s.min || !(*s.median > 0)) return;
    const double ratio = *s.max / *s.median;
    const bool skewed = s.skewness && *s.skewness > kSkewnessForTransform;
    // The maximum against the median only where the values lean right: around a median near
    // zero a symmetric column (-1000 .. 1000) has any ratio.
    const bool leansRight = !s.skewness || *s.skewness > kSkewnessForRatio;
    if (!skewed && !(ratio > kMaxOverMedianForTransform && leansRight)) return;
    const bool positive = *s.min > 0;
    r.transform = positive ? "log" : "log-shift";
    std::string why = "'" + s.name + "' is strongly right-skewed (";
    if (s.skewness) why += "skewness " + formatSignificant(*s.skewness, 3) + "; ";
    why += "its maximum is " + formatSignificant(ratio, 3) +
           " times its median): a normal model of y itself would spread the synthetic values "
           "far below the data, negative ones included; ";
    why += positive ? "log models log(y) instead (every value is positive)"
                    : "log-shift models log(y + s) instead, s = 1 - min(y), since it has " +
                          std::string(*s.min == 0 ? "zeros" : "negative values") + " (min " +
                          formatNumber(*s.min) + ")";
    why += ". The normal mixture model is the other remedy";
    r.transformReason = std::move(why);
}

}  // namespace

TableSummary summarize(const Table& table, const SummaryOptions& options) {
    TableSummary out;
    out.rows = table.rowCount();
    std::vector<std::size_t> exactDistinct;  // the cap is for display, not for choosing
    for (const auto& c : table.columns()) {
        ColumnSummary s;
        s.name = c.name();
        s.type = c.type();
        s.notNumbers = c.unreadCells().size();
        s.notNumbersMessage = c.unreadMessage();
        s.missing = c.missingCount() - s.notNumbers;
        std::size_t distinct = 0;
        switch (c.type()) {
            case ColumnType::Numeric:
            case ColumnType::Count:
                distinct = summarizeNumbers(c, s, out.columns.empty());
                break;
            case ColumnType::Categorical: {
                std::vector<std::size_t> n(c.levels().size(), 0);
                for (auto code : c.codes())
                    if (code >= 0) ++n[static_cast<std::size_t>(code)];
                for (std::size_t l = 0; l < n.size(); ++l) {
                    s.levels.push_back({c.levels()[l].label, n[l]});
                    if (n[l] > 0) ++distinct;
                }
                // One level per row, none missing: labels, like mtcars' car names.
                s.looksLikeId = c.size() >= 3 && distinct == c.size() && c.missingCount() == 0;
                if (s.looksLikeId)
                    s.idReason = "a different value in every row (" + std::to_string(distinct) +
                                 " levels): a record's label, not data about it; as a predictor "
                                 "it would single out every record";
                break;
            }
            case ColumnType::Text:
                distinct = distinctTexts(c);
                break;
        }
        s.distinct = std::min(distinct, options.distinctCap);
        s.distinctCapped = distinct > options.distinctCap;
        exactDistinct.push_back(distinct);
        out.columns.push_back(std::move(s));
    }

    // Target: the numeric or count column with the most distinct values, skipping
    // identifiers and constants; ties go to numeric over count, then to the first column.
    SuggestedRoles& r = out.roles;
    std::optional<std::size_t> best;
    std::size_t candidates = 0;
    std::vector<std::string> skippedIds;
    for (std::size_t j = 0; j < out.columns.size(); ++j) {
        const auto& s = out.columns[j];
        if (s.type != ColumnType::Numeric && s.type != ColumnType::Count) continue;
        if (s.looksLikeId) {
            skippedIds.push_back("'" + s.name + "' was skipped: it is an " + s.idReason);
            continue;
        }
        if (exactDistinct[j] < 2) continue;
        ++candidates;
        if (!best || exactDistinct[j] > exactDistinct[*best] ||
            (exactDistinct[j] == exactDistinct[*best] && s.type == ColumnType::Numeric &&
             out.columns[*best].type == ColumnType::Count))
            best = j;
    }
    if (best) {
        const auto& s = out.columns[*best];
        r.target = s.name;
        r.targetReason = candidates == 1
                             ? "'" + s.name + "' is the only numeric or count column that varies"
                             : "'" + s.name + "' has the most distinct values (" +
                                   std::to_string(exactDistinct[*best]) + " of " +
                                   std::to_string(out.rows) + " rows) among the " +
                                   std::to_string(candidates) + " numeric and count columns";
    } else {
        r.targetReason =
            "no numeric or count column varies (identifiers excepted); ppsynth "
            "synthesizes a numeric or count variable";
    }
    for (const auto& skipped : skippedIds) r.targetReason += "; " + skipped;
    if (best) suggestTransform(out.columns[*best], r);
    if (best)
        r.targetReason += ". Choose another target if the sensitive variable is a different column";

    for (std::size_t j = 0; j < out.columns.size(); ++j) {
        const auto& s = out.columns[j];
        if (s.name == r.target) continue;
        const std::size_t distinct = exactDistinct[j];
        std::string why;
        if (s.type == ColumnType::Text)
            why = "free text is never used by a model";
        else if (s.looksLikeId)
            why = s.idReason;
        else if (s.missing == out.rows)
            why = "every value is missing";
        else if (distinct < 2)
            why = "it has a single value, so it cannot predict anything";
        if (why.empty())
            r.predictors.push_back(s.name);
        else
            r.ignored.push_back({s.name, why});
    }
    r.knownNote =
        "none suggested: choose the known variables yourself, the categorical predictors an "
        "intruder could learn elsewhere (for example age, sex, region); each combination of "
        "their levels is a risk pattern";
    return out;
}

}  // namespace ppsynth::data
