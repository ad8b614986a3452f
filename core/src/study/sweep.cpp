#include "ppsynth/study/sweep.hpp"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/runner.hpp"
#include "study/block_run.hpp"
#include "study/prepared_file.hpp"
#include "study/resumable_folder.hpp"
#include "study/sweep_json.hpp"

namespace ppsynth::study {

using detail::rowFrom;
using detail::rowJson;
using detail::sweepCsv;
using nlohmann::json;

namespace {

RunConfig pointConfig(const SweepConfig& c, const SweepPoint& p) {
    RunConfig rc = sweepPointRunConfig(c, p);
    rc.mcmc.threads = 1;  // points are the unit of parallel work
    return rc;
}

}  // namespace

namespace {

// What identifies a resumable folder besides the settings that change results: the version
// of the saved items' format (items of an older format are not mixed with new ones) and
// the data file's bytes (data.path names a file whose contents may change between runs).
constexpr int kSweepItemFormat = 2;  // 2: utility columns and report

detail::FolderStamp folderStamp(const RunData& input) {
    return {kSweepItemFormat, input.sha256, input.path};
}

// What item 0 leaves for the grid points: the shared unweighted fit's results
// (study/prepared_file.hpp), so a process computing points does not refit it.
constexpr const char* kPreparedFile = "items/unweighted.prepared";

std::string preparedPath(const detail::ResumableFolder& folder) {
    return (std::filesystem::path(folder.dir()) / kPreparedFile).string();
}

}  // namespace

Expected<SweepSummary> runSweep(const SweepConfig& config, const RunData& input,
                                const std::string& outDir, const StudyOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    if (input.sha256.empty())
        return Error{
            "the sweep's data carry no SHA-256 (read them with readRunData): a resumed "
            "sweep could not tell whether the data file changed"};
    const data::Table& table = input.table;
    // Item 0 is the unweighted reference; item i the grid point i.
    const std::size_t items = config.points.size() + 1;
    auto name = [](std::size_t i) {
        return i == 0 ? std::string("unweighted") : "point_" + std::to_string(i);
    };
    if (options.items &&
        (options.items->first > options.items->last || options.items->last >= items))
        return Error{"items " + std::to_string(options.items->first) + "-" +
                     std::to_string(options.items->last) + " are not in this sweep: it has " +
                     std::to_string(items) + " items, 0 (the unweighted fit) to " +
                     std::to_string(items - 1) + " (its grid points)"};
    auto folder = options.items ? detail::ResumableFolder::openPlanned(
                                      outDir, "sweep", toJson(config, false), folderStamp(input))
                                : detail::ResumableFolder::open(
                                      outDir, "sweep", toJson(config, false), folderStamp(input));
    if (!folder) return folder.error();
    SweepSummary s;
    s.config = config;
    s.items = items;
    if (options.planOnly) {
        std::vector<std::string> names;
        std::vector<std::vector<std::size_t>> after;
        for (std::size_t i = 0; i < items; ++i) {
            names.push_back(name(i));
            after.push_back(i == 0 ? std::vector<std::size_t>{} : std::vector<std::size_t>{0});
        }
        if (auto st = folder->writePlan("sweep", names, after); !st) return st.error();
        return s;
    }
    const std::size_t first = options.items ? options.items->first : 0;
    const std::size_t last = options.items ? options.items->last : items - 1;
    bool allSaved = true;
    for (std::size_t i = first; i <= last && allSaved; ++i)
        allSaved = folder->load(name(i)).has_value();

    // The shared unweighted fit, once for every point. A local run fits it whenever a point
    // is missing; of the processes computing items, the one with item 0 fits it (also when
    // item 0 is saved but its prepared file is not) and the others load what item 0 saved.
    bool fitHere = !allSaved;
    if (options.items && first == 0) {
        std::error_code ec;
        fitHere = !folder->load(name(0)) || !std::filesystem::exists(preparedPath(*folder), ec);
    } else if (options.items) {
        fitHere = false;
    }
    RunConfig base = config.run;
    base.synthesizers = {SynthesizerConfig{}};  // "Unweighted"
    base.synthesizers[0].name = "Unweighted";
    RunOptions baseOptions;
    baseOptions.cancel = options.cancel;
    if (options.progress)
        baseOptions.progress = [&](const Progress& p) {
            Progress q = p;
            q.stage = "sweep: " + p.stage;
            return options.progress(q);
        };
    std::optional<PreparedStudy> prepared;
    const auto tp = std::chrono::steady_clock::now();
    if (fitHere) {
        auto p = prepareStudy(base, table, baseOptions);
        if (!p) {
            if (options.cancel && options.cancel->load())
                return Error::cancelled(
                    "cancelled while fitting the unweighted model; run the same command "
                    "again to resume");
            return p.error();
        }
        prepared = std::move(*p);
        // Before item 0's own file: item 0 saved means its prepared file is there too.
        if (auto st = folder->writeOutput(
                kPreparedFile,
                detail::encodeShared(PreparedStudyFile::shared(*prepared), folder->configSha256()));
            !st)
            return st.error();
        s.preparedSeconds = secondsSince(tp);
    } else if (!allSaved) {
        const std::string path = preparedPath(*folder);
        auto bytes = folder->readFile(kPreparedFile);
        if (!bytes)
            return Error{"items " + std::to_string(first) + "-" + std::to_string(last) +
                         " need the sweep's shared unweighted fit, '" + path +
                         "', which item 0 writes and which is not there yet: compute item 0 "
                         "first (`--item 0`; `cluster submit` runs the grid points after it)"};
        auto shared = detail::decodeShared(*bytes, folder->configSha256(), path);
        if (!shared) return shared.error();
        auto p = PreparedStudyFile::restore(base, table, std::move(*shared), baseOptions);
        if (!p) return p.error().prefixed("the shared unweighted fit in '" + path + "': ");
        prepared = std::move(*p);
        s.preparedSeconds = secondsSince(tp);
        s.preparedLoaded = true;
    }
    auto work = [&](std::size_t i) -> Expected<json> {
        RunOptions ro;
        ro.cancel = options.cancel;
        if (options.progress)
            ro.progress = [&, i](const Progress& p) {
                Progress q = p;
                q.stage = "sweep " + name(i) + ": " + p.stage;
                return options.progress(q);
            };
        json rows = json::array();
        if (i == 0) {
            RunConfig rc = config.run;
            rc.synthesizers = prepared->config().synthesizers;
            auto r = runPrepared(*prepared, rc, ro);
            if (!r) return r.error();
            rows.push_back(rowJson(rowFrom(0, SweepPoint{}, r->synthesizers[0])));
        } else {
            const SweepPoint& p = config.points[i - 1];
            auto r = runPrepared(*prepared, pointConfig(config, p), ro);
            if (!r) return r.error();
            for (const auto& syn : r->synthesizers)
                rows.push_back(rowJson(rowFrom(static_cast<int>(i), p, syn)));
        }
        return json{{"rows", rows}};
    };
    detail::BlockRunOptions bo;
    bo.threads = config.threads;
    bo.stage = "sweep";
    bo.progress = options.progress;
    bo.cancel = options.cancel;
    if (options.items) bo.only = std::pair{first, last};
    detail::BlockRunStats stats;
    auto done = detail::runBlocks(*folder, items, name, work, bo, &stats);
    if (!done) return done.error();
    s.pointsRun = stats.run;
    s.pointsResumed = stats.resumed;
    if (options.items) {  // one process of several: the summary is assembled once at the end
        s.seconds = secondsSince(t0);
        return s;
    }
    try {
        for (const auto& item : *done)
            for (const auto& r : item.at("rows")) s.rows.push_back(rowFrom(r));
    } catch (const json::exception& e) {
        return Error{"a saved point in '" + outDir + "' is damaged (" + e.what() +
                     "); remove its file under items/ to recompute it"};
    }
    s.seconds = secondsSince(t0);
    if (auto st = folder->writeOutput("sweep.csv", sweepCsv(s)); !st) return st.error();
    if (auto st = folder->writeOutput("sweep.json", sweepSummaryJson(s)); !st) return st.error();
    return s;
}

}  // namespace ppsynth::study
