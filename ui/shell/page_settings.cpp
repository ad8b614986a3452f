#include "ui/shell/page_settings.hpp"

#include <QFileInfo>
#include <algorithm>

#include "ppsynth/data/roles.hpp"
#include "ui/column_panel.hpp"
#include "ui/data_page.hpp"
#include "ui/local_path.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

Expected<study::RunConfig> PageSettings::currentConfig() const {
    const auto table = pages_.data->model()->table();
    if (!table || table->columnCount() == 0)
        return Error{QObject::tr("Open a data file on the Data page first.").toStdString()};
    const auto roles = pages_.data->columnPanel()->roles();
    if (roles.target.empty())
        return Error{
            QObject::tr("Choose the sensitive variable y on the Data page (its Role column).")
                .toStdString()};
    if (auto s = data::validateRoles(roles, *table); !s) return Error{s.message()};
    study::RunConfig c = baseConfig_;
    c.data.types.clear();  // the shown table's, below
    c.data.path = localPath(pages_.data->source());
    c.data.target = roles.target;
    c.data.targets = sensitiveList();
    c.data.predictors = roles.predictors;
    c.data.known = roles.known;
    c.data.referenceLevels = roles.referenceLevels;
    c.data.maxLevels = readOptions_.maxLevels;
    // run.json then says how the file was read, so reopening the run reads the same records.
    c.data.read = {readOptions_.csv, readOptions_.stat};
    for (std::size_t i = 0; i < table->columnCount(); ++i)
        c.data.types[table->column(i).name()] = std::string(toString(table->column(i).type()));
    pages_.model->apply(c);
    if (auto s = pages_.synthesizers->apply(c); !s) return Error{s.message()};
    return c;
}

Project PageSettings::gatherProject() const {
    Project p;
    p.dataPath = pages_.data->source();
    p.csv = readOptions_.csv;
    p.stat = readOptions_.stat;
    p.config = baseConfig_;
    p.note = projectNote_;
    auto& c = p.config;
    c.data.types.clear();  // the shown table's, below
    const auto table = pages_.data->model()->table();
    const auto roles = pages_.data->columnPanel()->roles();
    c.data.path = localPath(p.dataPath);
    c.data.target = roles.target;
    c.data.targets = sensitiveList();
    c.data.predictors = roles.predictors;
    c.data.known = roles.known;
    c.data.referenceLevels = roles.referenceLevels;
    c.data.maxLevels = readOptions_.maxLevels;
    if (table)
        for (std::size_t i = 0; i < table->columnCount(); ++i)
            c.data.types[table->column(i).name()] = std::string(toString(table->column(i).type()));
    pages_.model->apply(c);
    // An incomplete synthesizer set (none listed, or one not complete) is still worth saving.
    p.hasSynthesizers = bool(pages_.synthesizers->apply(c)) && !c.synthesizers.empty();
    if (!p.hasSynthesizers) c.synthesizers.clear();
    for (const auto& r : pages_.run->runList()->records())
        if (!r.folder.isEmpty()) p.runs.push_back({r.folder, r.label, r.epsilonSummary()});
    return p;
}

// data.targets: the Data page's sensitive variables in synthesis order when there are
// several; empty for one (a configuration with one keeps writing "target").
std::vector<std::string> PageSettings::sensitiveList() const {
    auto targets = pages_.data->columnPanel()->targets();
    if (targets.size() < 2) targets.clear();
    return targets;
}

// The settings a project file holds, as text: compared with the last opened or saved ones
// to tell whether closing would lose edits.
std::string PageSettings::settingsSnapshot() const {
    const Project p = gatherProject();
    return study::toJson(p.config) + (p.hasSynthesizers ? "+" : "-");
}

void PageSettings::markSaved() {
    savedSettings_ = settingsSnapshot();
}

bool PageSettings::changedSinceSaved() const {
    return settingsSnapshot() != savedSettings_;
}

QStringList PageSettings::applyRoles(const study::RunConfig::Data& roles) {
    auto* panel = pages_.data->columnPanel();
    const auto table = pages_.data->model()->table();
    QStringList missing;
    if (!table) return missing;
    auto role = [&roles](const std::string& column) {
        auto has = [&column](const std::vector<std::string>& v) {
            return std::find(v.begin(), v.end(), column) != v.end();
        };
        if (column == roles.target || has(roles.targets)) return data::Role::Target;
        if (has(roles.known)) return data::Role::Known;
        return has(roles.predictors) ? data::Role::Predictor : data::Role::Ignored;
    };
    for (std::size_t i = 0; i < table->columnCount(); ++i) {
        auto* combo = panel->roleCombo(int(i));
        combo->setCurrentIndex(combo->findData(int(role(table->column(i).name()))));
    }
    // Several sensitive variables: in the configuration's order, not the table's.
    panel->setTargetOrder(roles.targets);
    std::vector<std::string> named = roles.predictors;
    if (!roles.target.empty()) named.push_back(roles.target);
    for (const auto& t : roles.targets)
        if (t != roles.target) named.push_back(t);
    for (const auto& column : named)
        if (!table->indexOf(column)) missing << QString::fromStdString(column);
    panel->setReferenceLevels(roles.referenceLevels);
    return missing;
}

bool PageSettings::showsDataFile(const std::string& path) const {
    const QString shown = QFileInfo(pages_.data->source()).canonicalFilePath();
    return !shown.isEmpty() && shown == QFileInfo(fromLocalPath(path)).canonicalFilePath();
}

}  // namespace ppsynth::ui
