#include "ui/results/results_page.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <optional>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_length.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/chart_files.hpp"
#include "ui/results/joint_utility_charts.hpp"
#include "ui/results/joint_utility_tables.hpp"
#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/table_card.hpp"
#include "ui/results/utility_view.hpp"
#include "ui/results/variable_view.hpp"
#include "ui/run/run_record.hpp"

namespace ppsynth::ui::results {

namespace {

const char* const kGridName = "resultsGrid";

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// Places cards two per row; a span-2 card takes a row of its own.
void place(QGridLayout* grid, QWidget* w, int span) {
    int row = grid->rowCount();
    int col = 0;
    // QGridLayout::rowCount() is at least 1; find the first free cell after the last item.
    if (grid->count() > 0) {
        int r = 0, c = 0, rs = 0, cs = 0;
        grid->getItemPosition(grid->count() - 1, &r, &c, &rs, &cs);
        row = r;
        col = c + cs;
        if (col + span > 2) {
            row = r + 1;
            col = 0;
        }
    } else {
        row = 0;
    }
    grid->addWidget(w, row, col, 1, span);
}

}  // namespace

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    header_ = new QLabel(tr("No run yet: results appear here when a run finishes."), this);
    header_->setObjectName(QStringLiteral("resultsHeader"));
    header_->setWordWrap(true);
    top->addWidget(header_, 1);
    top->addWidget(new QLabel(tr("Synthesizer:"), this));
    synthesizer_ = new QComboBox(this);
    synthesizer_->setToolTip(
        tr("The synthesizer whose scatter plots, densities, trace plots and riskiest records "
           "the tabs show"));
    synthesizer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(synthesizer_);
    exportStatus_ = new QLabel(this);
    exportStatus_->setObjectName(QStringLiteral("exportStatus"));
    exportStatus_->setWordWrap(true);  // a refused destination takes a few lines
    top->addWidget(exportStatus_);
    exportButton_ = new QPushButton(tr("Export all charts..."), this);
    exportButton_->setToolTip(
        tr("Write every chart of this run to a folder as PNG and SVG. Most charts show "
           "record-level values of the confidential data: keep them with the confidential "
           "report, never in a release."));
    top->addWidget(exportButton_);
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        if (exportJob_ && exportJob_->isRunning()) {
            exportJob_->cancel();
            return;
        }
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all charts to"));
        if (!dir.isEmpty()) exportAllCharts(dir);
    });
    layout->addLayout(top);
    tabs_ = new QTabWidget(this);
    layout->addWidget(tabs_, 1);
    for (const QString& t : {tr("Summary"), tr("Risk"), tr("Weights"), tr("Utility"),
                             tr("Synthetic data"), tr("Diagnostics"), tr("Tables")})
        tabs_->addTab(tabPage(t), t);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("summaryText"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(synthesizer_, &QComboBox::currentIndexChanged, this,
            [this] { rebuildSynthesizerTabs(); });
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int i) { ensureBuilt(tabs_->tabText(i)); });
    setEnabled(false);
}

QWidget* ResultsPage::tabPage(const QString& title) {
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget;
    auto* grid = new QGridLayout(inner);
    grid->setObjectName(QString::fromLatin1(kGridName));
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    scroll->setWidget(inner);
    scroll->setObjectName(title);
    return scroll;
}

QGridLayout* ResultsPage::grid(const QString& title) const {
    for (int i = 0; i < tabs_->count(); ++i) {
        if (tabs_->tabText(i) != title) continue;
        auto* scroll = qobject_cast<QScrollArea*>(tabs_->widget(i));
        return scroll ? qobject_cast<QGridLayout*>(scroll->widget()->layout()) : nullptr;
    }
    return nullptr;
}

void ResultsPage::clearTab(const QString& title) {
    QGridLayout* g = grid(title);
    if (!g) return;
    while (QLayoutItem* item = g->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            if (w == summary_) {
                w->setParent(this);  // kept for the next run
                w->hide();
            } else {
                delete w;
            }
        }
        delete item;
    }
}

void ResultsPage::addChart(const QString& tab, ChartCard* card, int span) {
    if (QGridLayout* g = grid(tab)) place(g, card, span);
}

void ResultsPage::addTable(const QString& tab, TableCard* table, int span) {
    if (QGridLayout* g = grid(tab)) place(g, table, span);
}

QComboBox* ResultsPage::addVariableChooser(QHBoxLayout* row, const QString& tab,
                                           const QStringList& items, int current,
                                           std::function<void(int)> choose) {
    row->addWidget(new QLabel(tr("Variable")));
    auto* chooser = new QComboBox;
    chooser->addItems(items);
    chooser->setCurrentIndex(current);
    row->addWidget(chooser);
    connect(chooser, &QComboBox::currentIndexChanged, this,
            [this, tab, choose = std::move(choose)](int i) {
                if (i < 0) return;
                choose(i);
                stale_.insert(tab);
                // After the chooser's own signal has returned: rebuilding deletes it.
                QMetaObject::invokeMethod(
                    this, [this, tab] { ensureBuilt(tab); }, Qt::QueuedConnection);
            });
    return chooser;
}

void ResultsPage::addJointUtility(const QString& tab, const std::string& synthesizer) {
    const auto& r = *run_;
    auto table = [&](Expected<TableData> t, const QString& what) {
        if (t)
            addTable(tab, new TableCard(*t));
        else
            addTable(tab, new TableCard(what, q(t.message())));
    };
    table(jointUtilityTable(r), tr("Joint utility"));
    addChart(tab, new ChartCard(correlationNormViolins(r), tr("Correlation-matrix difference")));
    const auto pairs = correlationPairs(r);
    for (std::size_t p = 0; p < pairs.size(); ++p)
        addChart(tab, new ChartCard(correlationViolins(r, p), tr("Correlation")));
    table(correlationTable(r, synthesizer), tr("Correlations"));
    table(crossRegressionTable(r, synthesizer), tr("Cross-regressions"));
}

QList<ChartCard*> ResultsPage::chartCards(const QString& tab) const {
    // Asking for a tab's cards builds it, as showing it would.
    const_cast<ResultsPage*>(this)->ensureBuilt(tab);
    QList<ChartCard*> out;
    if (QGridLayout* g = grid(tab)) {
        for (int i = 0; i < g->count(); ++i)
            if (auto* c = qobject_cast<ChartCard*>(g->itemAt(i)->widget())) out << c;
    }
    return out;
}

QList<TableCard*> ResultsPage::tableCards(const QString& tab) const {
    const_cast<ResultsPage*>(this)->ensureBuilt(tab);
    QList<TableCard*> out;
    if (QGridLayout* g = grid(tab)) {
        for (int i = 0; i < g->count(); ++i)
            if (auto* c = qobject_cast<TableCard*>(g->itemAt(i)->widget())) out << c;
    }
    return out;
}

void ResultsPage::exportAllCharts(const QString& dir) {
    if (!run_ || (exportJob_ && exportJob_->isRunning())) return;
    if (const QString why = confidentialDestinationProblem(dir, tr("the charts")); !why.isEmpty()) {
        exportStatus_->setText(why);
        return;
    }
    delete exportJob_;
    // With the run's table, every sensitive variable's charts of the confidential y.
    RunChartOptions options;
    options.table = table_;
    exportJob_ = new ChartExportJob(run_, dir, options, QSize(900, 600), this);
    connect(exportJob_, &ChartExportJob::progress, this,
            [this](int done, int total, const QString&) {
                exportStatus_->setText(tr("Exporting charts: %1 of %2").arg(done).arg(total));
            });
    connect(exportJob_, &ChartExportJob::finished, this, [this](bool ok, const QString& message) {
        exportStatus_->setText(ok ? message : tr("Export stopped: %1").arg(message));
        exportButton_->setText(tr("Export all charts..."));
    });
    exportButton_->setText(tr("Cancel export"));
    exportJob_->start();
}

QString ResultsPage::currentSynthesizer() const {
    return synthesizer_->currentText();
}

void ResultsPage::setCurrentSynthesizer(const QString& name) {
    const int i = synthesizer_->findText(name);
    if (i >= 0) synthesizer_->setCurrentIndex(i);
}

void ResultsPage::showRun(study::RunResult run, const QString& label) {
    showRun(std::make_shared<const study::RunResult>(std::move(run)), label);
}

void ResultsPage::showRun(std::shared_ptr<const study::RunResult> run, const QString& label,
                          std::shared_ptr<const data::Table> table) {
    run_ = std::move(run);
    table_ = std::move(table);
    variable_.clear();
    utilityChoice_ = 0;
    setEnabled(run_ != nullptr);
    if (!run_) return;
    const auto& r = *run_;
    // Several sensitive variables: named in synthesis order, each with its model.
    const bool several = severalTargets(r);
    header_->setText(
        QStringLiteral("<b>%1</b> — %2 of %3 records, model %4, %5, m = %6 "
                       "synthetic datasets, %7 s")
            .arg(label.isEmpty() ? tr("Run") : label.toHtmlEscaped(),
                 several ? tr("%1 (synthesized in this order)")
                               .arg(variablesPhrase(r).replace(tr(" and "), tr(", then ")))
                               .toHtmlEscaped()
                         : q(r.config.data.target).toHtmlEscaped())
            .arg(r.inputs.yOriginal.size())
            .arg(several ? tr("per variable (%1)").arg(modelsPhrase(r)).toHtmlEscaped()
                         : q(models::familyLabel(r.config.model.family, r.config.model.K))
                               .toHtmlEscaped())
            .arg(q(study::chainsAndDraws(r.config)).toHtmlEscaped())
            .arg(r.config.synthesis.m)
            .arg(formatCell(r.seconds)));
    {
        const QSignalBlocker block(synthesizer_);
        synthesizer_->clear();
        int preferred = -1;
        for (const auto& s : r.synthesizers) {
            synthesizer_->addItem(q(s.name));
            if (preferred < 0 && s.scheme != study::Scheme::Unweighted)
                preferred = synthesizer_->count() - 1;
        }
        synthesizer_->setCurrentIndex(std::max(preferred, 0));
    }
    rebuild();
}

void ResultsPage::rebuild() {
    // Tabs are built when first shown: a large run's charts cost hundreds of milliseconds
    // in all, one tab's far less, so the window stays responsive.
    stale_.clear();
    for (int i = 0; i < tabs_->count(); ++i) stale_.insert(tabs_->tabText(i));
    ensureBuilt(tabs_->tabText(tabs_->currentIndex()));
}

void ResultsPage::rebuildSynthesizerTabs() {
    if (!run_) return;
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->tabText(i) != tr("Summary")) stale_.insert(tabs_->tabText(i));
    ensureBuilt(tabs_->tabText(tabs_->currentIndex()));
}

void ResultsPage::ensureBuilt(const QString& tab) {
    if (!run_ || !stale_.count(tab)) return;
    stale_.erase(tab);
    clearTab(tab);
    const auto& r = *run_;
    const std::string name = synthesizer_->currentText().toStdString();
    const auto* s = r.find(name);

    if (tab == tr("Summary")) {
        // The headline in words: epsilon first, as the issue asks the summary to show it.
        QString text =
            tr("<p><b>Privacy guarantee per synthesizer</b> (ε = 2 Δ(α,x) per released "
               "dataset; %1):</p>")
                .arg(r.synthesizers.empty() ? QString() : q(r.synthesizers[0].deltaMethod));
        // Several sensitive variables: one epsilon for the release of all of them, from the
        // joint record log-likelihoods; the risk counts closeness in a box.
        if (severalTargets(r))
            text +=
                tr("<p>One ε covers the release of %1 together (each record's joint "
                   "likelihood, one weight per record). Identification risk: a synthetic "
                   "record is close to a true one %2.</p>")
                    .arg(variablesPhrase(r).toHtmlEscaped(), closenessPhrase(r).toHtmlEscaped());
        text += QStringLiteral("<ul>");
        for (const auto& x : r.synthesizers) {
            QString utility;
            if (x.utility) {
                auto meanOverlap = [](const study::UtilityReport& u) -> std::optional<double> {
                    for (const auto& st : u.statistics)
                        if (st.statistic.kind == utility::StatisticKind::Mean) return st.ciOverlap;
                    return std::nullopt;
                };
                if (severalTargets(r) && !x.utility->variables.empty()) {
                    // Several sensitive variables: the mean of each (utility.variables).
                    QStringList parts;
                    for (const auto& u : x.utility->variables)
                        if (auto o = meanOverlap(u))
                            parts << tr("%1 %2").arg(q(u.target), formatCell(*o));
                    if (!parts.isEmpty())
                        utility = tr("; CI overlap of the mean of %1")
                                      .arg(parts.join(QStringLiteral(", ")));
                } else if (auto o = meanOverlap(*x.utility)) {
                    utility = severalTargets(r)
                                  ? tr("; CI overlap of the mean of %1 %2")
                                        .arg(q(x.utility->target), formatCell(*o))
                                  : tr("; CI overlap of the mean %1").arg(formatCell(*o));
                }
            }
            const auto& e = x.epsilonDiagnostics;
            const QString verdict =
                !e.diagnosed  ? tr(" (convergence not diagnosed)")
                : e.converged ? tr(" (converged)")
                              : tr(" <span style='color:#8a4b00'>(⚠ not converged: %1)</span>")
                                    .arg(q(joinReasons(e.reasons)).toHtmlEscaped());
            text += tr("<li><b>%1</b>: ε = %2 per dataset%10, %3 for all %4 datasets; mean "
                       "identification risk %5, %6 records above %7; mean weight %8%9</li>")
                        .arg(q(x.name).toHtmlEscaped(), formatCell(x.epsilon.perDataset),
                             formatCell(x.epsilon.total))
                        .arg(x.epsilon.m)
                        .arg(formatCell(x.irSummary.mean))
                        .arg(x.irSummary.aboveThreshold)
                        .arg(formatCell(x.irSummary.threshold), formatCell(x.weights.mean), utility,
                             verdict);
        }
        text += QStringLiteral("</ul>");
        // Rows left out of the model are said here, not only in run.json.
        text += tr("<p><b>Records:</b> %1.</p>").arg(recordsSummary(r).toHtmlEscaped());
        std::size_t warnings = 0;
        for (const auto& x : r.synthesizers) warnings += x.diagnostics.warnings.size();
        if (warnings > 0) {
            text += tr("<p style='color:#8a4b00'>⚠ The sampler reported %1 warning(s): see "
                       "Diagnostics before trusting these numbers.</p>")
                        .arg(warnings);
        }
        // The run's own warnings (settings, data, synthetic values below zero), also here
        // where a synthesizer is chosen for release, not only on the Run page.
        for (const auto& w : r.warnings)
            text += QStringLiteral("<p style='color:#8a4b00'>⚠ %1</p>").arg(q(w).toHtmlEscaped());
        summary_->setText(text);
        if (QGridLayout* g = grid(tab)) {
            summary_->show();
            place(g, summary_, 2);
        }
        addTable(tab, new TableCard(epsilonTable(r)));
        addChart(tab, new ChartCard(lipschitzViolins(r), tr("Lipschitz bounds")));
        addChart(tab, new ChartCard(riskViolins(r), tr("Identification risk")));
        addTable(tab, new TableCard(riskTable(r)));
        return;
    }
    if (!s) return;
    if (tab == tr("Risk")) {
        addChart(tab, new ChartCard(riskViolins(r), tr("Identification risk")));
        addChart(tab, new ChartCard(lipschitzViolins(r), tr("Lipschitz bounds")));
        if (s->scheme != study::Scheme::Unweighted)
            addChart(tab, new ChartCard(riskComparisonScatter(r, name), tr("Risk comparison")));
        if (!s->records.pairwiseWeight.empty())
            addChart(tab, new ChartCard(pairwiseRiskViolins(r), tr("Pairwise risk")));
        if (auto top = topRiskTable(r, name, 10, table_.get()))
            addTable(tab, new TableCard(*top), s->scheme != study::Scheme::Unweighted ? 1 : 2);
        else
            addTable(tab, new TableCard(tr("Riskiest records"), q(top.message())));
    } else if (tab == tr("Weights")) {
        addChart(tab, new ChartCard(weightViolins(r), tr("Weights")));
        addChart(tab, new ChartCard(boundVsWeightScatter(r, name), tr("Bound against weight")));
        addChart(tab, new ChartCard(weightVsYScatter(r, name), tr("Weight against y")));
    } else if (tab == tr("Utility")) {
        // Several sensitive variables: one variable's utility as a run of it alone shows
        // it, or the joint measures.
        std::optional<study::RunResult> view;
        if (severalTargets(r)) {
            const auto names = sensitiveNames(r);
            const int joint = static_cast<int>(names.size());
            utilityChoice_ = std::clamp(utilityChoice_, 0, joint);
            QStringList items;
            for (const auto& t : names) items << q(t);
            items << tr("Joint");
            auto* row = new QWidget;
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(4, 0, 4, 0);
            auto* chooser = addVariableChooser(rowLayout, tab, items, utilityChoice_,
                                               [this](int i) { utilityChoice_ = i; });
            chooser->setObjectName(QStringLiteral("utilityVariableChooser"));
            chooser->setItemData(joint,
                                 tr("The joint measures: pMSE over all sensitive variables, "
                                    "each regressed on the others, their correlations"),
                                 Qt::ToolTipRole);
            rowLayout->addWidget(new QLabel(
                utilityChoice_ == joint ? tr("Joint utility of %1.").arg(variablesPhrase(r))
                                        : tr("Utility of %1, one of %2 synthesized together.")
                                              .arg(items[utilityChoice_])
                                              .arg(names.size())));
            rowLayout->addStretch();
            if (QGridLayout* g = grid(tab)) place(g, row, 2);
            if (utilityChoice_ == joint) {
                addJointUtility(tab, name);
                return;
            }
            auto v = utilityOfVariable(r, names[static_cast<std::size_t>(utilityChoice_)]);
            if (!v) {
                addTable(tab, new TableCard(tr("Utility of %1").arg(items[utilityChoice_]),
                                            q(v.message())));
                return;
            }
            view = std::move(*v);
        }
        const study::RunResult& shown = view ? *view : r;
        const auto statistics = utilityStatistics(shown);
        for (std::size_t k = 0; k < statistics.size(); ++k)
            addChart(tab, new ChartCard(utilityViolins(shown, k), tr("Utility")));
        auto table = [&](Expected<TableData> t, const QString& what) {
            if (t)
                addTable(tab, new TableCard(*t));
            else
                addTable(tab, new TableCard(what, q(t.message())));
        };
        table(utilityTable(shown), tr("Utility"));
        if (!statistics.empty()) {
            table(distributionTable(shown), tr("Whole distribution"));
            table(regressionTable(shown, name), tr("Regression"));
            if (s->scheme != study::Scheme::Unweighted)
                table(posteriorTable(shown, name), tr("Posterior"));
        }
    } else if (tab == tr("Synthetic data")) {
        const int m = static_cast<int>(s->synthetic.size());
        dataset_ = std::clamp(dataset_, 0, std::max(m - 1, 0));
        auto* row = new QWidget;
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(4, 0, 4, 0);
        // Several sensitive variables: the charts show the one chosen (the first without
        // the run's table, which holds the others' confidential values).
        const auto names = sensitiveNames(r);
        if (std::find(names.begin(), names.end(), variable_) == names.end())
            variable_ = r.config.data.target;
        std::optional<study::RunResult> view;
        QString viewProblem;
        if (severalTargets(r) && table_) {
            QStringList items;
            for (const auto& t : names) items << q(t);
            const auto current = std::find(names.begin(), names.end(), variable_) - names.begin();
            addVariableChooser(
                rowLayout, tab, items, current < std::ssize(names) ? static_cast<int>(current) : 0,
                [this, names](int i) { variable_ = names[static_cast<std::size_t>(i)]; })
                ->setObjectName(QStringLiteral("variableChooser"));
            if (auto v = runOfVariable(r, *table_, variable_))
                view = std::move(*v);
            else
                viewProblem = q(v.message());
        }
        rowLayout->addWidget(new QLabel(
            (severalTargets(r) && !table_ ? tr("Charts of %1, the first of %2. ")
                                                .arg(q(r.config.data.target), variablesPhrase(r))
                                          : QString()) +
            tr("Densities pool all %1 synthetic datasets; the scatter shows dataset").arg(m)));
        auto* spin = new QSpinBox;
        spin->setObjectName(QStringLiteral("datasetChooser"));
        spin->setRange(1, std::max(m, 1));
        spin->setValue(dataset_ + 1);
        rowLayout->addWidget(spin);
        rowLayout->addWidget(new QLabel(tr("of %1.").arg(m)));
        rowLayout->addStretch();
        if (QGridLayout* g = grid(tab)) place(g, row, 2);
        connect(spin, &QSpinBox::valueChanged, this, [this, tab](int v) {
            dataset_ = v - 1;
            stale_.insert(tab);
            // After the spin box's own signal has returned: rebuilding deletes it.
            QMetaObject::invokeMethod(
                this, [this, tab] { ensureBuilt(tab); }, Qt::QueuedConnection);
        });
        if (!viewProblem.isEmpty()) {
            addTable(tab, new TableCard(tr("Synthetic data of %1").arg(q(variable_)), viewProblem));
            return;
        }
        const study::RunResult& shown = view ? *view : r;
        addChart(tab, new ChartCard(densityChart(shown, name), tr("Density")));
        addChart(tab, new ChartCard(densityTailChart(shown, name), tr("Tail density")));
        addChart(tab, new ChartCard(syntheticVsConfidentialScatter(
                                        shown, name, static_cast<std::size_t>(dataset_)),
                                    tr("Synthetic against confidential")));
    } else if (tab == tr("Diagnostics")) {
        const auto traced = traceParameters(r, name, 4);
        for (std::size_t p : traced)
            addChart(tab, new ChartCard(traceChart(r, name, p), tr("Trace")));
        if (traced.empty())
            addTable(tab,
                     new TableCard(
                         tr("Trace plots"),
                         tr("this run holds no parameter draws (its folder was written without "
                            "--keep-draws)")));
        addTable(tab, new TableCard(samplerTable(r)));
        addTable(tab, new TableCard(convergenceTable(r)));
    } else if (tab == tr("Tables")) {
        addTable(tab, new TableCard(epsilonTable(r)));
        addTable(tab, new TableCard(riskTable(r)));
        // Several sensitive variables: each variable's utility tables, then the joint one.
        const auto names = severalTargets(r) ? sensitiveNames(r) : std::vector<std::string>{};
        for (const auto& v : names) {
            auto view = utilityOfVariable(r, v);
            if (!view) continue;
            if (auto u = utilityTable(*view)) addTable(tab, new TableCard(*u));
            if (auto d = distributionTable(*view)) addTable(tab, new TableCard(*d));
        }
        if (names.empty()) {
            if (auto u = utilityTable(r)) addTable(tab, new TableCard(*u));
            if (auto d = distributionTable(r)) addTable(tab, new TableCard(*d));
        } else if (auto joint = jointUtilityTable(r)) {
            addTable(tab, new TableCard(*joint));
        }
        if (auto top = topRiskTable(r, name, 10, table_.get())) addTable(tab, new TableCard(*top));
        addTable(tab, new TableCard(samplerTable(r)));
        addTable(tab, new TableCard(convergenceTable(r)));
    }
}

}  // namespace ppsynth::ui::results

#include "moc_results_page.cpp"
