#include "ui/results/results_page.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/results/chart_card.hpp"
#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/table_card.hpp"

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
    layout->addLayout(top);
    tabs_ = new QTabWidget(this);
    layout->addWidget(tabs_, 1);
    for (const QString& t : {tr("Summary"), tr("Risk"), tr("Weights"), tr("Synthetic data"),
                             tr("Diagnostics"), tr("Tables")})
        tabs_->addTab(tabPage(t), t);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("summaryText"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(synthesizer_, &QComboBox::currentIndexChanged, this,
            [this] { rebuildSynthesizerTabs(); });
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

QList<ChartCard*> ResultsPage::chartCards(const QString& tab) const {
    QList<ChartCard*> out;
    if (QGridLayout* g = grid(tab)) {
        for (int i = 0; i < g->count(); ++i)
            if (auto* c = qobject_cast<ChartCard*>(g->itemAt(i)->widget())) out << c;
    }
    return out;
}

QList<TableCard*> ResultsPage::tableCards(const QString& tab) const {
    QList<TableCard*> out;
    if (QGridLayout* g = grid(tab)) {
        for (int i = 0; i < g->count(); ++i)
            if (auto* c = qobject_cast<TableCard*>(g->itemAt(i)->widget())) out << c;
    }
    return out;
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

void ResultsPage::showRun(std::shared_ptr<const study::RunResult> run, const QString& label) {
    run_ = std::move(run);
    setEnabled(run_ != nullptr);
    if (!run_) return;
    const auto& r = *run_;
    header_->setText(
        QStringLiteral("<b>%1</b> — %2 of %3 records, model %4, %5 chains × %6 draws, m = %7 "
                       "synthetic datasets, %8 s")
            .arg(label.isEmpty() ? tr("Run") : label.toHtmlEscaped(),
                 q(r.config.data.target).toHtmlEscaped())
            .arg(r.inputs.yOriginal.size())
            .arg(q(r.config.model.family).toHtmlEscaped())
            .arg(r.config.mcmc.chains)
            .arg(r.config.mcmc.draws)
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
    const auto& r = *run_;
    const QString summaryTab = tr("Summary");
    clearTab(summaryTab);

    // The headline in words: epsilon first, as the issue asks the summary to show it.
    QString text = tr("<p><b>Privacy guarantee per synthesizer</b> (ε = 2 Δ(α,x) per released "
                      "dataset; %1):</p><ul>")
                       .arg(r.synthesizers.empty() ? QString() : q(r.synthesizers[0].deltaMethod));
    for (const auto& s : r.synthesizers) {
        text += tr("<li><b>%1</b>: ε = %2 per dataset, %3 for all %4 datasets; mean "
                   "identification risk %5, %6 records above %7; mean weight %8</li>")
                    .arg(q(s.name).toHtmlEscaped(), formatCell(s.epsilon.perDataset),
                         formatCell(s.epsilon.total))
                    .arg(s.epsilon.m)
                    .arg(formatCell(s.irSummary.mean))
                    .arg(s.irSummary.aboveThreshold)
                    .arg(formatCell(s.irSummary.threshold), formatCell(s.weights.mean));
    }
    text += QStringLiteral("</ul>");
    std::size_t warnings = 0;
    for (const auto& s : r.synthesizers) warnings += s.diagnostics.warnings.size();
    if (warnings > 0) {
        text += tr("<p style='color:#8a4b00'>⚠ The sampler reported %1 warning(s): see "
                   "Diagnostics before trusting these numbers.</p>")
                    .arg(warnings);
    }
    summary_->setText(text);
    if (QGridLayout* g = grid(summaryTab)) {
        summary_->show();
        place(g, summary_, 2);
    }
    addTable(summaryTab, new TableCard(epsilonTable(r)));
    addChart(summaryTab, new ChartCard(lipschitzViolins(r), tr("Lipschitz bounds")));
    addChart(summaryTab, new ChartCard(riskViolins(r), tr("Identification risk")));
    addTable(summaryTab, new TableCard(riskTable(r)));
    rebuildSynthesizerTabs();
}

void ResultsPage::rebuildSynthesizerTabs() {
    if (!run_) return;
    const auto& r = *run_;
    const std::string name = synthesizer_->currentText().toStdString();
    const auto* s = r.find(name);
    const QString risk = tr("Risk"), weights = tr("Weights"), synthetic = tr("Synthetic data"),
                  diagnostics = tr("Diagnostics"), tables = tr("Tables");
    for (const QString& t : {risk, weights, synthetic, diagnostics, tables}) clearTab(t);
    if (!s) return;

    addChart(risk, new ChartCard(riskViolins(r), tr("Identification risk")));
    addChart(risk, new ChartCard(lipschitzViolins(r), tr("Lipschitz bounds")));
    if (s->scheme != study::Scheme::Unweighted)
        addChart(risk, new ChartCard(riskComparisonScatter(r, name), tr("Risk comparison")));
    if (auto top = topRiskTable(r, name))
        addTable(risk, new TableCard(*top), s->scheme != study::Scheme::Unweighted ? 1 : 2);
    else
        addTable(risk, new TableCard(tr("Riskiest records"), q(top.message())));

    addChart(weights, new ChartCard(weightViolins(r), tr("Weights")));
    addChart(weights, new ChartCard(boundVsWeightScatter(r, name), tr("Bound against weight")));
    addChart(weights, new ChartCard(weightVsYScatter(r, name), tr("Weight against y")));

    addChart(synthetic, new ChartCard(densityChart(r, name), tr("Density")));
    addChart(synthetic, new ChartCard(densityTailChart(r, name), tr("Tail density")));
    addChart(synthetic, new ChartCard(syntheticVsConfidentialScatter(r, name),
                                      tr("Synthetic against confidential")));

    for (std::size_t p : traceParameters(r, name, 4))
        addChart(diagnostics, new ChartCard(traceChart(r, name, p), tr("Trace")));
    addTable(diagnostics, new TableCard(samplerTable(r)));
    addTable(diagnostics, new TableCard(convergenceTable(r)));

    addTable(tables, new TableCard(epsilonTable(r)));
    addTable(tables, new TableCard(riskTable(r)));
    if (auto top = topRiskTable(r, name)) addTable(tables, new TableCard(*top));
    addTable(tables, new TableCard(samplerTable(r)));
    addTable(tables, new TableCard(convergenceTable(r)));
}

}  // namespace ppsynth::ui::results
