#include "ui/results/compare_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/study/run_length.hpp"
#include "ui/charts/plot_chart.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/results_tables.hpp"
#include "ui/results/run_charts.hpp"
#include "ui/results/run_variables.hpp"
#include "ui/results/table_card.hpp"
#include "ui/results/utility_view.hpp"

namespace ppsynth::ui::results {

namespace {

QValueAxis* valueAxis(ChartCard* card) {
    if (!card || !card->chart()) return nullptr;
    const auto axes = card->chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    auto* choosers = new QHBoxLayout;
    left_ = new QComboBox(this);
    right_ = new QComboBox(this);
    left_->setObjectName(QStringLiteral("leftRun"));
    right_->setObjectName(QStringLiteral("rightRun"));
    choosers->addWidget(new QLabel(tr("Compare"), this));
    choosers->addWidget(left_, 1);
    choosers->addWidget(new QLabel(tr("with"), this));
    choosers->addWidget(right_, 1);
    outer->addLayout(choosers);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget;
    auto* body = new QVBoxLayout(inner);
    tableSlot_ = new QVBoxLayout;
    body->addLayout(tableSlot_);
    auto* row = new QHBoxLayout;
    for (auto*& side : sides_) {
        side = new QVBoxLayout;
        row->addLayout(side, 1);
    }
    body->addLayout(row);
    body->addStretch();
    scroll->setWidget(inner);
    outer->addWidget(scroll, 1);

    for (QComboBox* c : {left_, right_})
        connect(c, &QComboBox::currentIndexChanged, this, &CompareView::rebuild);
}

void CompareView::addRun(const QString& label, std::shared_ptr<const study::RunResult> run) {
    if (!run) return;
    runs_.push_back({label, std::move(run)});
    {
        const QSignalBlocker b1(left_), b2(right_);
        left_->addItem(label);
        right_->addItem(label);
        if (runs_.size() == 1) {
            left_->setCurrentIndex(0);
            right_->setCurrentIndex(0);
        } else if (runs_.size() == 2) {
            right_->setCurrentIndex(1);
        }
    }
    rebuild();
}

void CompareView::setPair(int left, int right) {
    {
        const QSignalBlocker b1(left_), b2(right_);
        left_->setCurrentIndex(left);
        right_->setCurrentIndex(right);
    }
    rebuild();
}

int CompareView::indexOf(const study::RunResult* run) const {
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].run.get() == run) return static_cast<int>(i);
    return -1;
}

void CompareView::compare(const QString& labelA, std::shared_ptr<const study::RunResult> a,
                          const QString& labelB, std::shared_ptr<const study::RunResult> b) {
    if (!a || !b) return;
    auto ensure = [this](const QString& label, std::shared_ptr<const study::RunResult> run) {
        int i = indexOf(run.get());
        if (i < 0) {
            runs_.push_back({label, std::move(run)});
            const QSignalBlocker b1(left_), b2(right_);
            left_->addItem(label);
            right_->addItem(label);
            i = runCount() - 1;
        }
        return i;
    };
    const int left = ensure(labelA, std::move(a));
    const int right = ensure(labelB, std::move(b));
    setPair(left, right);
}

QList<ChartCard*> CompareView::cards(int side) const {
    return side == 0 || side == 1 ? cards_[side] : QList<ChartCard*>{};
}

void CompareView::rebuild() {
    delete table_;
    table_ = nullptr;
    for (int side = 0; side < 2; ++side) {
        while (QLayoutItem* item = sides_[side]->takeAt(0)) {
            delete item->widget();
            delete item;
        }
        cards_[side].clear();
    }
    const int li = left_->currentIndex(), ri = right_->currentIndex();
    if (li < 0 || ri < 0 || li >= runCount() || ri >= runCount()) return;
    const Entry& a = runs_[static_cast<std::size_t>(li)];
    const Entry& b = runs_[static_cast<std::size_t>(ri)];
    table_ = new TableCard(comparisonTable(*a.run, a.label, *b.run, b.label));
    tableSlot_->addWidget(table_);

    const Entry* entries[2] = {&a, &b};
    for (int side = 0; side < 2; ++side) {
        const auto& r = *entries[side]->run;
        auto* head = new QLabel(
            tr("<b>%1</b>: %2 of %3 records, model %4, %5, m = %6")
                .arg(entries[side]->label.toHtmlEscaped(), variablesPhrase(r).toHtmlEscaped())
                .arg(r.inputs.yOriginal.size())
                .arg((severalTargets(r) ? modelsPhrase(r)
                                        : QString::fromStdString(models::familyLabel(
                                              r.config.model.family, r.config.model.K)))
                         .toHtmlEscaped())
                .arg(QString::fromStdString(study::chainsAndDraws(r.config)).toHtmlEscaped())
                .arg(r.config.synthesis.m));
        head->setWordWrap(true);
        sides_[side]->addWidget(head);
        QList<ChartCard*> cards{new ChartCard(lipschitzViolins(r), tr("Lipschitz bounds")),
                                new ChartCard(riskViolins(r), tr("Identification risk")),
                                new ChartCard(weightViolins(r), tr("Weights"))};
        // Several sensitive variables: the utility of the mean of each.
        if (severalTargets(r)) {
            for (const auto& v : sensitiveNames(r)) {
                const QString what = tr("Utility of the mean of %1").arg(QString::fromStdString(v));
                auto view = utilityOfVariable(r, v);
                cards << (view ? new ChartCard(utilityViolins(*view, 0), what)
                               : new ChartCard(view.error(), what));
            }
        } else {
            cards << new ChartCard(utilityViolins(r, 0), tr("Utility of the mean"));
        }
        for (auto* card : cards) {
            sides_[side]->addWidget(card);
            cards_[side] << card;
        }
        // A side with more cards (several variables) does not stretch the other's.
        sides_[side]->addStretch();
    }
    // Common value ranges: the same height means the same number on both sides. Charts pair
    // up by title, so the utility of one variable meets the same variable's.
    for (ChartCard* left : cards_[0]) {
        const auto same = std::find_if(cards_[1].begin(), cards_[1].end(), [&](ChartCard* c) {
            return left->hasChart() && c->hasChart() && c->title() == left->title();
        });
        if (same == cards_[1].end()) continue;
        QValueAxis* x = valueAxis(left);
        QValueAxis* y = valueAxis(*same);
        if (!x || !y) continue;
        const double lo = std::min(x->min(), y->min()), hi = std::max(x->max(), y->max());
        x->setRange(lo, hi);
        y->setRange(lo, hi);
    }
}

}  // namespace ppsynth::ui::results

#include "moc_compare_view.cpp"
