#include "ppsynth/data/roles.hpp"

#include <algorithm>
#include <set>

namespace ppsynth::data {

namespace {
bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// "HS, College, Grad" (at most 10 labels, then "...").
std::string levelLabels(const Column& c) {
    std::string out;
    const auto& levels = c.levels();
    for (std::size_t i = 0; i < levels.size() && i < 10; ++i) {
        if (i > 0) out += ", ";
        out += levels[i].label;
    }
    if (levels.size() > 10) out += ", ...";
    return out;
}

Status checkTarget(const Roles& roles, const Table& table) {
    if (roles.target.empty())
        return Error{
            "no target chosen; pick the sensitive variable (a numeric or count column) "
            "to synthesize"};
    const Column* c = table.find(roles.target);
    if (!c)
        return Error{"target '" + roles.target +
                     "' is not a column of the table; pick one of its columns"};
    if (c->type() == ColumnType::Categorical || c->type() == ColumnType::Text)
        return Error{"target '" + roles.target + "' is " + std::string(toString(c->type())) +
                     "; the target must be numeric or count: change its type or pick another "
                     "target"};
    return {};
}

Status checkPredictors(const Roles& roles, const Table& table) {
    std::set<std::string> seen;
    for (const auto& p : roles.predictors) {
        if (p == roles.target)
            return Error{"'" + p +
                         "' is the target and cannot also be a predictor; remove it from the "
                         "predictors"};
        const Column* c = table.find(p);
        if (!c)
            return Error{"predictor '" + p +
                         "' is not a column of the table; remove it from the predictors"};
        if (!seen.insert(p).second)
            return Error{"predictor '" + p + "' is listed twice; remove the second entry"};
        if (c->type() == ColumnType::Text)
            return Error{"predictor '" + p +
                         "' is text, which no model can use; change its type to categorical or "
                         "remove it from the predictors"};
    }
    return {};
}

Status checkKnown(const Roles& roles, const Table& table) {
    std::set<std::string> seen;
    for (const auto& k : roles.known) {
        if (k == roles.target)
            return Error{"'" + k +
                         "' is the target and cannot also be a known variable; remove it from "
                         "the known variables"};
        const Column* c = table.find(k);
        if (!c)
            return Error{"known variable '" + k +
                         "' is not a column of the table; remove it from the known variables"};
        if (!seen.insert(k).second)
            return Error{"known variable '" + k + "' is listed twice; remove the second entry"};
        if (c->type() != ColumnType::Categorical)
            return Error{"known variable '" + k +
                         "' must be a categorical predictor; change its type to categorical or "
                         "remove it from the known variables"};
        if (!contains(roles.predictors, k))
            return Error{"known variable '" + k +
                         "' must be a categorical predictor; add it to the predictors or remove "
                         "it from the known variables"};
    }
    return {};
}

Status checkReferenceLevels(const Roles& roles, const Table& table) {
    for (const auto& [name, label] : roles.referenceLevels) {
        const Column* c = table.find(name);
        if (!c || !contains(roles.predictors, name))
            return Error{"a reference level is set for '" + name +
                         "', which is not a predictor; remove that setting or add '" + name +
                         "' to the predictors"};
        if (c->type() != ColumnType::Categorical)
            return Error{"a reference level is set for '" + name + "', which is " +
                         std::string(toString(c->type())) +
                         "; remove that setting or change its type to categorical"};
        const auto& levels = c->levels();
        if (std::none_of(levels.begin(), levels.end(),
                         [&wanted = label](const Level& l) { return l.label == wanted; }))
            return Error{"reference level '" + label + "' of '" + name +
                         "' is not one of its levels (" + levelLabels(*c) + "); pick one of them"};
    }
    return {};
}
}  // namespace

Role Roles::roleOf(const std::string& column) const {
    if (column == target) return Role::Target;
    if (contains(known, column)) return Role::Known;
    if (contains(predictors, column)) return Role::Predictor;
    return Role::Ignored;
}

Status validateRoles(const Roles& roles, const Table& table) {
    if (auto s = checkTarget(roles, table); !s) return s;
    if (auto s = checkPredictors(roles, table); !s) return s;
    if (auto s = checkKnown(roles, table); !s) return s;
    return checkReferenceLevels(roles, table);
}

}  // namespace ppsynth::data
