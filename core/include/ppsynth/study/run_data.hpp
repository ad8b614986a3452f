// The confidential data of a run: read the way the configuration says (data.read, type
// overrides, level limit), fingerprinted with SHA-256 so a finished run can later check it
// is looking at the same file, and prepared into model inputs. Shared by the runner,
// `ppsynth-cli run` and the run-folder loader, so a reopened run sees exactly the records
// the run saw.
#pragma once

#include <atomic>
#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/run_config.hpp"

namespace ppsynth::study {

// data.types and data.max_levels as reader options, in the reader's default CSV dialect: for
// the files a run writes itself (synthetic data). An unknown type name is an error that
// names the column.
Expected<data::ReadOptions> columnOptionsFor(const RunConfig& config);
// columnOptionsFor with data.read: how the run's data file is read.
Expected<data::ReadOptions> readOptionsFor(const RunConfig& config);

struct RunData {
    data::Table table;
    std::string sha256;  // of the file's bytes, lower-case hex
    std::string path;    // the file read
};

// Reads `path` (empty: config.data.path) with readOptionsFor(config) and hashes it. With
// `expectedSha256`, a file with other bytes is refused before it is parsed.
Expected<RunData> readRunData(const RunConfig& config, const std::string& path = "",
                              const std::string& expectedSha256 = "");

// The configuration's roles, transform and missing policy applied to the table.
Expected<data::ModelInputs> prepareRunInputs(const RunConfig& config, const data::Table& table,
                                             const std::atomic<bool>* cancel = nullptr);

}  // namespace ppsynth::study
