#include "ppsynth/study/project_save.hpp"

#include <filesystem>
#include <system_error>

namespace ppsynth::study {

namespace fs = std::filesystem;

namespace {

// A name under `parent` that nothing uses yet: `stem`, then stem_2, stem_3, ...
fs::path freeFolder(const fs::path& parent, const std::string& stem) {
    fs::path candidate = parent / stem;
    std::error_code ec;
    for (int i = 2; fs::exists(fs::symlink_status(candidate, ec)); ++i)
        candidate = parent / (stem + "_" + std::to_string(i));
    return candidate;
}

// What one save wrote, undone unless it is committed.
class Rollback {
  public:
    explicit Rollback(fs::path runsDir) : runsDir_(std::move(runsDir)) {}
    ~Rollback() {
        if (committed_) return;
        std::error_code ec;
        for (const auto& f : folders_) fs::remove_all(f, ec);
        // fs::remove deletes a folder only when it is empty: anything else there stays.
        if (createdRunsDir_) fs::remove(runsDir_, ec);
    }
    Rollback(const Rollback&) = delete;
    Rollback& operator=(const Rollback&) = delete;

    Status makeRunsDir() {
        std::error_code ec;
        if (fs::is_directory(runsDir_, ec)) return {};
        createdRunsDir_ = fs::create_directories(runsDir_, ec);
        if (ec)
            return Error{"cannot create the runs folder '" + runsDir_.string() +
                         "': " + ec.message()};
        return {};
    }
    void wrote(const fs::path& folder) { folders_.push_back(folder); }
    void commit() { committed_ = true; }

  private:
    fs::path runsDir_;
    bool createdRunsDir_ = false;
    std::vector<fs::path> folders_;
    bool committed_ = false;
};

}  // namespace

std::string projectRunsFolder(const std::string& projectPath) {
    const fs::path p = fs::absolute(fs::path(projectPath));
    return (p.parent_path() / (p.stem().string() + "_runs")).string();
}

Expected<std::vector<std::string>> saveProject(const Project& project, const std::string& path,
                                               const std::vector<RunToSave>& runs,
                                               const ProjectSaveOptions& options) {
    const fs::path runsDir = projectRunsFolder(path);
    Rollback rollback(runsDir);
    Project saved = project;
    std::vector<std::string> folders;
    if (!runs.empty())
        if (auto s = rollback.makeRunsDir(); !s) return Error{s.message()};
    // Asked before each run folder and once more before the project file, so a stop during
    // the last run's write still leaves the old project as it was.
    const auto stopped = [&](std::size_t done) {
        return report(options.progress, {"saving runs", 0, double(done), double(runs.size())}) ==
               Continue::Stop;
    };
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& run = runs[i];
        if (stopped(i)) return Error::cancelled();
        const fs::path folder = freeFolder(runsDir, run.name);
        // Recorded before the write: a writer that fails part-way leaves nothing either.
        rollback.wrote(folder);
        if (auto s = run.write(folder.string()); !s) return s.error();
        folders.push_back(folder.string());
        saved.runs.push_back({folder.string(), run.label, run.summary});
    }
    if (!runs.empty() && stopped(runs.size())) return Error::cancelled();
    if (options.beforeProjectFile)
        if (auto s = options.beforeProjectFile(); !s) return s.error();
    if (auto s = saveProjectFile(saved, path); !s) return s.error();
    rollback.commit();
    return folders;
}

}  // namespace ppsynth::study
