#include "cli_read_options.hpp"

#include <nlohmann/json.hpp>

#include "ppsynth/study/run_config.hpp"

namespace ppsynth::cli {

void addReadFlags(CLI::App* cmd, ReadFlags& f, const std::string& which) {
    const std::string group = "Reading " + which;
    cmd->add_option("--delimiter", f.delimiter, "CSV delimiter: auto (default) or one character")
        ->group(group);
    cmd->add_option("--quote", f.quote, "CSV quote character (default \")")->group(group);
    cmd->add_option("--decimal", f.decimal, "CSV decimal separator: auto (default), . or ,")
        ->group(group);
    cmd->add_option("--thousands", f.thousands,
                    "CSV thousands separator: none (default), ',', '.', ' ' or \"'\" "
                    "(1,234.5  1.234,5  1 234,5  1'234.5)")
        ->group(group);
    cmd->add_option("--encoding", f.encoding, "CSV text: auto (default), utf-8 or windows-1252")
        ->group(group);
    cmd->add_option(
           "--missing", f.missing,
           "Cells meaning missing (replaces the default \"\", NA and .), e.g. --missing -9 NA")
        ->group(group);
    cmd->add_flag("--no-header", f.noHeader, "The CSV file has no header line")->group(group);
    cmd->add_option("--stat-encoding", f.statEncoding,
                    "Encoding of an older .sav/.dta/.sas7bdat without one, e.g. WINDOWS-1252")
        ->group(group);
}

namespace {

// The configuration's message ("data.read: 'decimal' must be ...") in the flags' words.
std::string flagWords(std::string message) {
    if (message.starts_with("data.read: ")) message.erase(0, 11);
    for (const auto& [key, flag] :
         {std::pair<std::string, std::string>{"'missing_tokens'", "--missing"},
          {"'stat_encoding'", "--stat-encoding"},
          {"'delimiter'", "--delimiter"},
          {"'quote'", "--quote"},
          {"'decimal'", "--decimal"},
          {"'thousands'", "--thousands"},
          {"'encoding'", "--encoding"}})
        for (auto at = message.find(key); at != std::string::npos; at = message.find(key))
            message.replace(at, key.size(), flag);
    return message;
}

}  // namespace

Expected<data::ReadOptions> readOptionsFrom(const ReadFlags& f) {
    nlohmann::json j = nlohmann::json::object();
    if (f.delimiter) j["delimiter"] = *f.delimiter == "\\t" ? std::string("\t") : *f.delimiter;
    if (f.quote) j["quote"] = *f.quote;
    if (f.decimal) j["decimal"] = *f.decimal;
    if (f.thousands) j["thousands"] = *f.thousands;
    if (f.encoding) j["encoding"] = *f.encoding;
    if (f.missing) j["missing_tokens"] = *f.missing;
    if (f.noHeader) j["header"] = false;
    if (f.statEncoding) j["stat_encoding"] = *f.statEncoding;
    auto read = study::parseDataRead(j.dump());
    if (!read) return Error{flagWords(read.message())};
    data::ReadOptions o;
    o.csv = read->csv;
    o.stat = read->stat;
    return o;
}

}  // namespace ppsynth::cli
