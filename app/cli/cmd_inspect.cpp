// `ppsynth-cli inspect FILE [--json]`: reads a data file and prints what it holds (types,
// missing values, statistics, levels) and the roles ppsynth would suggest.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <locale>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_commands.hpp"
#include "cli_read_options.hpp"
#include "ppsynth/data/inspect.hpp"
#include "ppsynth/data/io.hpp"

namespace ppsynth::cli {

namespace {

struct InspectArgs {
    std::string file;
    bool json = false;
    ReadFlags read;
};

// Six significant digits, locale-free: enough to read, not a round-trip format.
std::string shortNumber(double v) {
    std::ostringstream os;
    os.imbue(std::locale::classic());
    os << std::setprecision(v == std::floor(v) && std::abs(v) < 1e15 ? 15 : 6) << v;
    return os.str();
}

nlohmann::ordered_json optionalNumber(const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json toJson(const std::string& file, const data::TableSummary& s,
                              const data::ReadReport& report) {
    nlohmann::ordered_json columns = nlohmann::ordered_json::array();
    for (const auto& c : s.columns) {
        nlohmann::ordered_json j = {{"name", c.name},
                                    {"type", std::string(data::toString(c.type))},
                                    {"missing", c.missing},
                                    {"distinct", c.distinct},
                                    {"distinct_capped", c.distinctCapped}};
        if (c.type == data::ColumnType::Numeric || c.type == data::ColumnType::Count) {
            j["min"] = optionalNumber(c.min);
            j["max"] = optionalNumber(c.max);
            j["mean"] = optionalNumber(c.mean);
            j["sd"] = optionalNumber(c.sd);
            j["not_numbers"] = c.notNumbers;
            j["non_finite"] = c.nonFinite;
        }
        if (c.type != data::ColumnType::Text) j["looks_like_id"] = c.looksLikeId;
        if (c.type == data::ColumnType::Categorical) {
            j["levels"] = nlohmann::ordered_json::array();
            for (const auto& l : c.levels)
                j["levels"].push_back({{"label", l.label}, {"count", l.count}});
        }
        columns.push_back(std::move(j));
    }
    nlohmann::ordered_json ignored = nlohmann::ordered_json::array();
    for (const auto& i : s.roles.ignored)
        ignored.push_back({{"name", i.name}, {"reason", i.reason}});
    return {{"file", file},
            {"rows", s.rows},
            {"notes", report.notes},
            {"columns", std::move(columns)},
            {"suggested_roles",
             {{"target", s.roles.target.empty() ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(s.roles.target)},
              {"target_reason", s.roles.targetReason},
              {"predictors", s.roles.predictors},
              {"known", s.roles.known},
              {"known_note", s.roles.knownNote},
              {"ignored", std::move(ignored)},
              {"transform", s.roles.transform.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(s.roles.transform)},
              {"transform_reason", s.roles.transformReason}}}};
}

std::string columnDetail(const data::ColumnSummary& c) {
    constexpr std::size_t kShownLevels = 6;
    std::string out;
    switch (c.type) {
        case data::ColumnType::Numeric:
        case data::ColumnType::Count:
            if (c.notNumbers > 0)
                out = std::to_string(c.notNumbers) +
                      (c.notNumbers == 1 ? " cell is" : " cells are") +
                      " not a number (see the note), ";
            if (c.nonFinite > 0) out += std::to_string(c.nonFinite) + " not finite (inf or NaN), ";
            if (!c.min) return out + "no finite values";
            out += "min " + shortNumber(*c.min) + ", max " + shortNumber(*c.max) + ", mean " +
                   shortNumber(*c.mean);
            if (c.sd) out += ", sd " + shortNumber(*c.sd);
            break;
        case data::ColumnType::Categorical: {
            out = std::to_string(c.levels.size()) + " levels:";
            for (std::size_t l = 0; l < c.levels.size() && l < kShownLevels; ++l)
                out +=
                    (l ? ", " : " ") + c.levels[l].label + " " + std::to_string(c.levels[l].count);
            if (c.levels.size() > kShownLevels)
                out += ", ... (" + std::to_string(c.levels.size() - kShownLevels) + " more)";
            return out;
        }
        case data::ColumnType::Text:
            break;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(c.distinct) + (c.distinctCapped ? "+" : "") +
           " distinct";
    return out;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "(none)" : out;
}

void printText(std::ostream& os, const std::string& file, const data::TableSummary& s,
               const data::ReadReport& report) {
    os << file << ": " << s.rows << " rows, " << s.columns.size() << " columns\n";
    for (const auto& n : report.notes) os << "  note: " << n << '\n';
    std::size_t width = 6;
    for (const auto& c : s.columns) width = std::max(width, c.name.size());
    os << '\n'
       << std::left << std::setw(static_cast<int>(width + 2)) << "column" << std::setw(13) << "type"
       << std::right << std::setw(8) << "missing"
       << "  summary\n";
    for (const auto& c : s.columns)
        os << std::left << std::setw(static_cast<int>(width + 2)) << c.name << std::setw(13)
           << data::toString(c.type) << std::right << std::setw(8) << c.missing << "  "
           << columnDetail(c) << '\n';
    os << "\nSuggested roles (a starting point; change them as needed)\n"
       << "  target:     " << (s.roles.target.empty() ? "(none)" : s.roles.target) << "\n"
       << "              " << s.roles.targetReason << "\n"
       << "  transform:  " << (s.roles.transform.empty() ? "none" : s.roles.transform) << "\n";
    if (!s.roles.transformReason.empty()) os << "              " << s.roles.transformReason << "\n";
    os << "  predictors: " << joined(s.roles.predictors) << "\n"
       << "  known:      " << s.roles.knownNote << "\n";
    for (const auto& i : s.roles.ignored)
        os << "  ignored:    " << i.name << " (" << i.reason << ")\n";
}

int runInspect(const InspectArgs& args) {
    auto options = readOptionsFrom(args.read);
    if (!options) {
        std::cerr << "ppsynth-cli inspect: " << options.message() << '\n';
        return 2;
    }
    data::ReadReport report;
    auto table = data::readTable(args.file, *options, &report);
    if (!table) {
        std::cerr << "ppsynth-cli inspect: " << table.message() << '\n';
        return 1;
    }
    const auto summary = data::summarize(*table);
    if (args.json)
        std::cout << toJson(args.file, summary, report).dump(2) << '\n';
    else
        printText(std::cout, args.file, summary, report);
    return 0;
}

const RegisterCommand registerInspect([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<InspectArgs>();
    auto* cmd = app.add_subcommand(
        "inspect",
        "Show a data file's columns, types, missing values, statistics and suggested roles");
    cmd->add_option("file", args->file,
                    "Data file (.csv, .tsv, .txt, .sav, .zsav, .por, .dta, .sas7bdat, .xpt)")
        ->required();
    cmd->add_flag("--json", args->json, "Print the summary as JSON");
    addReadFlags(cmd, args->read, "the file");
    cmd->callback([args, &exitCode] { exitCode = runInspect(*args); });
});

}  // namespace

}  // namespace ppsynth::cli
