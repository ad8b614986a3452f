#include "ppsynth/data/design_summary.hpp"

#include "ppsynth/data/number_format.hpp"

namespace ppsynth::data {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string columnList(const std::vector<std::string>& names, std::size_t maxNames) {
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < maxNames; ++k)
        out += (k ? ", " : "") + names[k];
    if (names.size() > maxNames)
        out += ", ... (" + std::to_string(names.size() - maxNames) + " more)";
    return out;
}

std::string targetPhrase(const DesignSummary& d) {
    std::string t = "'" + d.target + "'";
    if (d.transform == "none") return t + " as it is";
    if (d.transform == "log-shift")
        return t + " transformed by log(y + " + formatSignificant(d.shift, 4) + ")";
    return t + " transformed by " + d.transform;
}

}  // namespace

DesignSummary summarizeDesign(const ModelInputs& inputs, const std::string& target,
                              std::size_t components, bool predictorsUsed) {
    DesignSummary d;
    d.target = target;
    d.transform = std::string(toString(inputs.transform.kind));
    d.shift = inputs.transform.shift;
    d.records = inputs.recordCount();
    d.columns = inputs.coding.columnCount();
    d.components = components == 0 ? 1 : components;
    d.predictorsUsed = predictorsUsed;
    for (const auto& pc : inputs.coding.predictors) {
        PredictorDesign p;
        p.name = pc.name;
        p.type = std::string(toString(pc.type));
        for (std::size_t j = 0; j < pc.columnCount; ++j)
            p.columns.push_back(inputs.coding.columnNames[pc.firstColumn + j]);
        if (pc.type == ColumnType::Categorical) {
            p.levels = pc.dummyLabels.size() + 1;
            p.reference = pc.referenceLabel;
        } else {
            p.mean = pc.mean;
            p.sd = pc.sd;
        }
        d.predictors.push_back(std::move(p));
    }
    return d;
}

std::vector<std::string> describeDesign(const DesignSummary& d, std::size_t maxNames) {
    std::string head = "model design: y = " + targetPhrase(d) + ", " +
                       plural(d.records, "record", "records") + ", " +
                       plural(d.predictors.size(), "predictor", "predictors") + ", X has " +
                       plural(d.columns, "column", "columns") + " (the intercept included)";
    if (!d.predictorsUsed)
        head += ", but this model fits one mean and uses none of them: 0 coefficients";
    else if (d.components > 1)
        head += ", each of the " + std::to_string(d.components) +
                " mixture components has its own: " + std::to_string(d.coefficients()) +
                " coefficients";
    else
        head += ": " + plural(d.coefficients(), "coefficient", "coefficients");
    std::vector<std::string> lines{std::move(head)};
    for (const auto& p : d.predictors) {
        std::string line = "  " + p.name + ": " + p.type + ", ";
        if (p.type == "categorical")
            line += std::to_string(p.levels) + " levels, reference '" + p.reference + "', ";
        else
            line += "standardized with mean " + formatSignificant(p.mean.value_or(0.0), 4) +
                    ", sd " + formatSignificant(p.sd.value_or(1.0), 4) + ", ";
        line +=
            plural(p.columns.size(), "column", "columns") + ": " + columnList(p.columns, maxNames);
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace ppsynth::data
