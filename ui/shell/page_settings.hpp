// What the pages describe, read and written as one: the run configuration (roles from the
// Data page, model, MCMC and synthesizers) over the loaded base configuration, the project a
// save writes, the roles a project or sweep point sets, and whether the settings changed
// since they were last opened or saved.
#pragma once

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ui/project_file.hpp"
#include "ui/shell/shell_pages.hpp"

namespace ppsynth::ui {

class PageSettings {
  public:
    explicit PageSettings(const ShellPages& pages) : pages_(pages) {}

    // The run configuration the pages describe; fails with what to fix when incomplete.
    Expected<study::RunConfig> currentConfig() const;
    // The project a save writes: the pages' settings and the run list's saved runs.
    Project gatherProject() const;
    // Sets the shown table's roles to `data`'s (columns it does not name are ignored);
    // returns the columns the table does not have.
    QStringList applyRoles(const study::RunConfig::Data& data);
    // True when the Data page shows the file at `path` (a local 8-bit path).
    bool showsDataFile(const std::string& path) const;

    // Whether the settings changed since markSaved() (opened, saved, fresh data).
    void markSaved();
    bool changedSinceSaved() const;

    // The configuration the widgets overlay: the opened project's or sweep point's, so what
    // the pages have no widget for (Lipschitz quantile, risk threshold, MCMC tuning, EM's
    // tolerance, ...) is run as loaded rather than reset to the defaults.
    study::RunConfig& baseConfig() { return baseConfig_; }
    QString& projectNote() { return projectNote_; }  // the open project's note, saved with it
    // How the shown table was read (saved in projects).
    data::ReadOptions& readOptions() { return readOptions_; }

  private:
    std::string settingsSnapshot() const;
    std::vector<std::string> sensitiveList() const;

    ShellPages pages_;
    study::RunConfig baseConfig_;
    QString projectNote_;
    data::ReadOptions readOptions_;
    std::string savedSettings_;  // settingsSnapshot() when last opened or saved
};

}  // namespace ppsynth::ui
