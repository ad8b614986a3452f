// Writes a finished run to a folder (the CLI's --out DIR):
//   run.json                                 summaries only, nothing record-level
//   synthetic/<name>/synthetic_01.csv ...    the input's kept rows, target replaced
//   confidential/<name>_records.csv          row, y, alpha, f, lipschitz, ir[, pairwise_weight]
//   confidential/<name>_draws.csv            with keepDraws only
// The folder is assembled under a temporary name and renamed into place at the end, so a
// failed or cancelled write leaves nothing behind (and an earlier run folder it replaces as
// it was).
#pragma once

#include <functional>
#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::study {

struct OutputOptions {
    bool keepDraws = false;
    // Replace an earlier run folder at the destination (otherwise one there is an error);
    // see checkRunDestination for what may be replaced. The earlier folder is moved aside
    // and deleted only once the new one is in place, so a failure leaves it whole.
    bool overwrite = false;
    // Told something the person should know once the folder is written: that the earlier run
    // folder could not be deleted, and where it was left.
    std::function<void(const std::string&)> warning;
};

// Writes the folder after checking the destination (checkRunDestination).
Status writeRunOutput(const RunResult& run, const data::Table& table, const std::string& dir,
                      const OutputOptions& options = {});

// Whether a run folder may be written at `dir`: nothing is there yet, or, with `overwrite`,
// what is there may be replaced. Only an empty folder or a run folder writeRunOutput wrote
// (its run.json is a ppsynth run's) that holds nothing else is replaced, so a mistyped --out
// never deletes someone's documents, nor files kept beside a run (a report, exported charts).
// The folder that would hold it must take new entries (checkWritableDestination: a read-only
// mount or a path under a file is refused). The message says what is there and what to do.
// The CLI asks before reading the data or computing the run.
Status checkRunDestination(const std::string& dir, bool overwrite);

// run.json's text (exposed for tests and for the GUI's project files). Its data_file.sha256
// is run.dataSha256 as it is (writeRunOutput hashes the file when that is empty).
std::string runSummaryJson(const RunResult& run);

// Where dataset l (0-based) of synthesizer `name` lies in a run folder ('/'-separated):
// "synthetic/<name>/synthetic_01.csv", ...; the top-coding comparator's one dataset is the
// confidential data with its largest values capped, so it is "confidential/<name>_topcoded.csv",
// never in a folder named "synthetic".
std::string datasetFile(const std::string& name, Scheme scheme, std::size_t l);

// The columns a run's synthetic datasets (and release bundles) hold: the target and the
// predictors; every other column of the input stays confidential.
bool modelledColumn(const RunConfig& config, const std::string& column);

// Synthetic dataset `y` of a run as a table: the input's kept rows of the target (replaced
// by `y`) and the predictors, with their types, levels and labels, in the input's column
// order; no other column of the input. What synthetic/<name>/ and a release bundle are made of.
Expected<data::Table> syntheticTable(const RunResult& run, const data::Table& table,
                                     const std::vector<double>& y);
// The same from the configuration and the input's kept rows (what a release has).
Expected<data::Table> syntheticTable(const RunConfig& config,
                                     const std::vector<std::size_t>& keptRows,
                                     const data::Table& table, const std::vector<double>& y);

}  // namespace ppsynth::study
