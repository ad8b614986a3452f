// Reopens a finished run folder (writeRunOutput's layout) as a RunResult, for the GUI's
// results page, the release bundle and the disclosure-review report:
//   run.json                          summaries, the configuration, the data file's SHA-256
//   synthetic/<name>/synthetic_NN.csv the released y of every synthesizer
//   confidential/<name>_records.csv   y, alpha, f, Lipschitz bound, IR per record
//   confidential/<name>_draws.csv     parameter draws, when the run kept them
// plus the data file run.json names, read and prepared exactly as the run did. A data file
// whose bytes differ from the run's is refused: the record-level results would silently
// describe other records.
#pragma once

#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"

namespace ppsynth::study {

struct LoadOptions {
    // The data file, when it moved since the run (empty: the path run.json records). Its
    // contents must still be the run's.
    std::string dataPath;
    bool synthetic = true;  // read the m synthetic datasets of every synthesizer
    // Only these synthesizers' datasets (a release needs one); empty: every synthesizer.
    std::vector<std::string> syntheticFor;
    bool draws = true;          // read the draws files that exist
    ProgressCallback progress;  // stage "loading the run", done/total in files; Stop cancels
};

struct LoadedRun {
    RunResult run;
    data::Table table;     // the data file as read (every row and column)
    std::string dataPath;  // where it was read from
    // run.json recorded the data file's SHA-256 and the file matched it (older run folders
    // have no checksum: their records are still checked against the data value by value).
    bool dataVerified = false;
};

// Summaries recomputed from the records (weights, IR summary with its top records, the
// whack-a-mole records against the unweighted synthesizer, if the run has one) equal the
// run's own.
Expected<LoadedRun> loadRunFolder(const std::string& dir, const LoadOptions& options = {});
Expected<RunResult> loadRunOutput(const std::string& dir, const LoadOptions& options = {});

}  // namespace ppsynth::study
