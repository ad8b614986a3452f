#include "ui/report/report_sections.hpp"

#include <QStringList>
#include <algorithm>
#include <cmath>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/run_length.hpp"
#include "ppsynth/study/run_output.hpp"

namespace ppsynth::ui::report {

namespace {

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

QString list(const std::vector<std::string>& items) {
    QStringList out;
    for (const auto& s : items) out << str(s);
    return out.isEmpty() ? QStringLiteral("(none)") : out.join(QStringLiteral(", "));
}

QString range(double low, double high) {
    return num(low) + QStringLiteral(" to ") + num(high);
}

// Two-column "what | value" table.
ReportTable keyValues(QString caption, std::vector<std::pair<QString, QString>> rows) {
    ReportTable t;
    t.caption = std::move(caption);
    t.header = {QStringLiteral("Setting"), QStringLiteral("Value")};
    t.alignRight = {false, false};
    for (auto& [k, v] : rows) t.rows.push_back({k, v});
    return t;
}

QString settingsOf(const study::SynthesizerConfig& sc) {
    QStringList s;
    switch (sc.scheme) {
        case study::Scheme::Unweighted:
            return QStringLiteral("all weights 1");
        case study::Scheme::Lipschitz:
        case study::Scheme::Marginal:
        case study::Scheme::Pairwise:
            s << QStringLiteral("c = %1").arg(num(sc.c)) << QStringLiteral("g = %1").arg(num(sc.g));
            if (sc.M) s << QStringLiteral("M = %1").arg(num(*sc.M));
            if (sc.scheme != study::Scheme::Lipschitz)
                s << QStringLiteral("IR from %1").arg(str(sc.source));
            break;
        case study::Scheme::Sigmoid:
            s << QStringLiteral("a = %1").arg(num(sc.sigmoidA))
              << QStringLiteral("IR from %1").arg(str(sc.source));
            break;
        case study::Scheme::Scalar:
            s << (sc.epsilon ? QStringLiteral("target epsilon %1").arg(num(*sc.epsilon))
                             : QStringLiteral("matches the epsilon of %1").arg(str(sc.match)));
            s << QStringLiteral("tolerance %1%").arg(num(100 * sc.tolerance));
            break;
        case study::Scheme::Reweight:
            s << QStringLiteral("base %1").arg(str(sc.base))
              << (sc.k ? QStringLiteral("k = %1").arg(num(*sc.k)) : QStringLiteral("k searched"))
              << QStringLiteral("tolerance %1%").arg(num(100 * sc.tolerance));
            break;
        case study::Scheme::Scaled: {
            study::SynthesizerConfig of = sc;
            of.scheme = sc.of.value_or(study::Scheme::Lipschitz);
            s << QStringLiteral("%1 weights (%2)")
                     .arg(str(std::string(study::toString(of.scheme))), settingsOf(of));
            s << (sc.targetEpsilon ? QStringLiteral("scaled to target epsilon %1, tolerance %2%")
                                         .arg(num(*sc.targetEpsilon), num(100 * sc.tolerance))
                                   : QStringLiteral("scale a = %1").arg(num(sc.scale.value_or(1))));
            break;
        }
        case study::Scheme::TopCode:
            return QStringLiteral("top-coded at the %1 quantile; no formal guarantee")
                .arg(num(sc.topcodeQ));
    }
    return s.join(QStringLiteral(", "));
}

// What the model was fitted on: each predictor's coding and its columns of X.
ReportTable designTable(const data::DesignSummary& d) {
    ReportTable t;
    t.caption = QStringLiteral("Model design");
    t.header = {QStringLiteral("Predictor"), QStringLiteral("Type"), QStringLiteral("Coding"),
                QStringLiteral("Columns of X")};
    t.alignRight = {false, false, false, false};
    for (const auto& p : d.predictors) {
        const QString coding =
            p.type == "categorical"
                ? QStringLiteral("%1 levels, reference '%2'").arg(p.levels).arg(str(p.reference))
                : QStringLiteral("standardized: mean %1, sd %2")
                      .arg(num(p.mean.value_or(0.0)), num(p.sd.value_or(1.0)));
        QStringList names;
        for (const auto& c : p.columns) names << str(c);
        t.rows.push_back(
            {str(p.name), str(p.type), coding,
             QStringLiteral("%1: %2").arg(p.columns.size()).arg(names.join(QStringLiteral(", ")))});
    }
    t.note = str(data::describeDesign(d).front());
    return t;
}

QString joined(const std::vector<std::string>& reasons) {
    QStringList out;
    for (const auto& r : reasons) out << str(r);
    return out.join(QStringLiteral("; "));
}

QString convergedWord(const privacy::EpsilonDiagnostics& e) {
    if (!e.diagnosed) return QStringLiteral("not diagnosed");
    return e.converged ? QStringLiteral("yes") : QStringLiteral("NO");
}

// D_s = max_i alpha_i |l_{s,i}| as a chain, per synthesizer (METHOD.md section 2).
ReportTable convergenceOfEpsilon(const study::RunResult& run) {
    ReportTable t;
    t.caption = QStringLiteral("Convergence of epsilon");
    t.header = {QStringLiteral("Synthesizer"),
                QStringLiteral("converged"),
                QStringLiteral("R-hat of D_s (bulk / tail)"),
                QStringLiteral("ESS of D_s (bulk / tail)"),
                QStringLiteral("R-hat log-lik."),
                QStringLiteral("Delta per chain"),
                QStringLiteral("Delta, halves of the draws"),
                QStringLiteral("row setting Delta"),
                QStringLiteral("its log-lik. l"),
                QStringLiteral("f_i agreement")};
    t.alignRight = {false, false, true, true, true, true, true, true, true, false};
    for (const auto& r : run.synthesizers) {
        const auto& e = r.epsilonDiagnostics;
        if (!e.diagnosed) {
            t.rows.push_back({str(r.name), convergedWord(e), QStringLiteral("-"),
                              QStringLiteral("-"), QStringLiteral("-"), QStringLiteral("-"),
                              QStringLiteral("-"), QStringLiteral("-"), QStringLiteral("-"),
                              QStringLiteral("-")});
            continue;
        }
        QStringList chains;
        for (double d : e.deltaPerChain) chains << num(d);
        // Runs made before the halves were reported have none ("-").
        const QString halves =
            std::isnan(e.deltaFirstHalf)
                ? QStringLiteral("-")
                : QStringLiteral("%1 / %2").arg(num(e.deltaFirstHalf), num(e.deltaSecondHalf));
        QString agreement = QStringLiteral("-");
        if (const auto& f = e.fAgreement) {
            agreement =
                QStringLiteral("rank corr. %1, median rel. diff. %2%")
                    .arg(num(f->rankCorrelation, 3), num(100 * f->medianRelativeDifference, 2));
            // Runs made before the chains were judged against their halves have no within figures.
            if (!std::isnan(f->withinMedianRelativeDifference))
                agreement += QStringLiteral(" (within a chain %1, %2%)")
                                 .arg(num(f->withinRankCorrelation, 3),
                                      num(100 * f->withinMedianRelativeDifference, 2));
        }
        const QString slash = QStringLiteral(" / ");
        t.rows.push_back({str(r.name), convergedWord(e), num(e.rhatBulk) + slash + num(e.rhatTail),
                          num(e.essBulk, 3) + slash + num(e.essTail, 3),
                          num(std::max(e.loglikRhatBulk, e.loglikRhatTail)),
                          chains.join(QStringLiteral(", ")), halves,
                          QString::number(static_cast<qulonglong>(e.argmaxRecord)),
                          num(e.argmaxLoglik), agreement});
    }
    const privacy::EpsilonThresholds th;
    t.note =
        QStringLiteral(
            "D_s = max_i alpha_i |l_i| per draw is the chain epsilon is the maximum of. "
            "Converged: split R-hat (bulk and tail) at most %1, ESS at least %2 per chain, "
            "the total log-likelihood's split R-hat also at most %1 (chains that have not "
            "settled on the posterior can agree on D_s while another seed gives another "
            "epsilon), and, where the unweighted f_i feed the weights, the chains' f_i agreeing "
            "about as well as the two halves of one chain do: the median relative "
            "difference between half chains of different chains at most %3 times that "
            "within a chain (or below %4%), and the same for 1 - rank correlation (or a "
            "rank correlation of at least %5). A positive l is a density above 1.")
            .arg(num(th.rhat), num(th.essPerChain), num(th.fDisagreementRatio),
                 num(100 * th.fRelativeDifferenceFloor), num(th.fRankCorrelationFloor));
    return t;
}

}  // namespace

QString num(double v, int digits) {
    // An unbounded Delta or epsilon is shown as such, never as a blank.
    if (std::isinf(v)) return v > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
    if (std::isnan(v)) return QStringLiteral("-");
    const double a = std::abs(v);
    // Incomes and counts read as numbers ("75028"), not "7.503e+04"; whole digits are never
    // cut, and exponents stay for the very small and the very large.
    if (a == 0 || a < 1e-3 || a >= 1e9) return QString::number(v, 'g', digits);
    const int whole = static_cast<int>(std::floor(std::log10(a))) + 1;
    QString text = QString::number(v, 'f', std::max(0, digits - whole));
    if (text.contains(QLatin1Char('.'))) {  // "0.5000" -> "0.5", as 'g' would
        while (text.endsWith(QLatin1Char('0'))) text.chop(1);
        if (text.endsWith(QLatin1Char('.'))) text.chop(1);
    }
    return text;
}

ReportSection configurationSection(const study::RunResult& run, const RunSource& source) {
    const auto& c = run.config;
    const auto& in = run.inputs;
    ReportSection s{QStringLiteral("configuration"), QStringLiteral("Run configuration"), {}};
    s.blocks.push_back(ReportBlock::paragraph(
        QStringLiteral("The run in %1 compared %2 synthesizers of '%3' on %4 records. Every "
                       "figure below is computed from this run folder and the data file it "
                       "read. %5")
            .arg(source.runDir)
            .arg(run.synthesizers.size())
            .arg(c.data.targets.size() > 1 ? list(c.data.targets) : str(c.data.target))
            .arg(in.recordCount())
            .arg(source.dataVerified
                     ? QStringLiteral("The data file's SHA-256 matched the run's record.")
                     : QStringLiteral("The run recorded no checksum of its data file; its records "
                                      "were checked against the data value by value."))));
    QString target = (c.data.targets.size() > 1 ? list(c.data.targets) : str(c.data.target)) +
                     QStringLiteral(" (transform %1").arg(str(c.data.transform));
    if (in.transform.kind == data::TransformKind::LogShift)
        target += QStringLiteral(", shift s = %1").arg(num(in.transform.shift, 6));
    target += QLatin1Char(')');
    s.blocks.push_back(ReportBlock::tableBlock(keyValues(
        QStringLiteral("Data"),
        {{QStringLiteral("Data file"), source.dataPath},
         {QStringLiteral("SHA-256"), str(run.dataSha256)},
         {QStringLiteral("Records modelled"),
          QStringLiteral("%1 of %2 rows (%3 dropped by the missing-value policy '%4')")
              .arg(in.recordCount())
              .arg(in.report.rowsInTable)
              .arg(in.report.rowsDropped)
              .arg(str(c.data.missing))},
         {QStringLiteral("Target (synthesized)"), target},
         {QStringLiteral("Predictors"), list(c.data.predictors)},
         {QStringLiteral("Known variables (intruder)"), list(c.data.known)},
         {QStringLiteral("Risk patterns"), QStringLiteral("%1 patterns; %2 records alone in theirs")
                                               .arg(in.patterns.count())
                                               .arg(in.patterns.singletons)},
         {QStringLiteral("Design columns"), QString::number(in.columnNames().size())}})));

    s.blocks.push_back(ReportBlock::tableBlock(designTable(run.design)));
    if (!run.warnings.empty()) {
        QStringList w;
        for (const auto& text : run.warnings) w << str(text);
        s.blocks.push_back(ReportBlock::paragraph(QStringLiteral("Warnings of this run: ") +
                                                  w.join(QStringLiteral("; "))));
    }

    std::vector<std::pair<QString, QString>> model = {
        {QStringLiteral("Family"), str(c.model.family)}};
    if (models::isMixtureFamily(c.model.family))
        model.push_back({QStringLiteral("Components K"), QString::number(c.model.K)});
    if (auto priors = study::priorsFromConfig(c.model.priors)) {
        QStringList p;
        for (const auto& [name, value] : study::priorValues(*priors, c.model.family))
            p << QStringLiteral("%1 = %2").arg(str(name), num(value));
        model.push_back({QStringLiteral("Prior hyperparameters"), p.join(QStringLiteral(", "))});
    }
    if (c.mcmc.drawsAuto)
        model.push_back({QStringLiteral("Chains x (warm-up + draws)"),
                         QStringLiteral("%1 x (%2 + until converged); %3; draws kept per "
                                        "synthesizer under MCMC diagnostics")
                             .arg(c.mcmc.chains)
                             .arg(c.mcmc.warmup)
                             .arg(str(study::chainsAndDraws(c)))});
    else
        model.push_back(
            {QStringLiteral("Chains x (warm-up + draws)"), QStringLiteral("%1 x (%2 + %3); S = %4")
                                                               .arg(c.mcmc.chains)
                                                               .arg(c.mcmc.warmup)
                                                               .arg(c.mcmc.draws)
                                                               .arg(c.mcmc.chains * c.mcmc.draws)});
    model.push_back(
        {QStringLiteral("Target acceptance, max tree depth"),
         QStringLiteral("%1, %2").arg(num(c.mcmc.adaptDelta)).arg(c.mcmc.maxTreeDepth)});
    model.push_back({QStringLiteral("Seed"), QString::number(c.mcmc.seed)});
    model.push_back({QStringLiteral("Synthetic datasets m, risk datasets L"),
                     QStringLiteral("%1, %2").arg(c.synthesis.m).arg(c.risk.L)});
    model.push_back({QStringLiteral("Risk radius r"),
                     QStringLiteral("%1 (%2)").arg(
                         num(c.risk.radius), c.risk.percentage ? QStringLiteral("percentage")
                                                               : QStringLiteral("absolute"))});
    model.push_back(
        {QStringLiteral("Risk threshold, whack-a-mole rise"),
         QStringLiteral("%1, %2").arg(num(c.risk.threshold), num(c.risk.whackAMoleRise))});
    model.push_back(
        {QStringLiteral("Delta estimate"),
         c.lipschitz.quantile >= 1
             ? QStringLiteral("maximum over draws")
             : QStringLiteral("%1-quantile over draws").arg(num(c.lipschitz.quantile))});
    s.blocks.push_back(ReportBlock::tableBlock(
        keyValues(QStringLiteral("Model, sampler and risk settings"), model)));

    ReportTable synth;
    synth.caption = QStringLiteral("Synthesizers");
    synth.header = {QStringLiteral("Name"), QStringLiteral("Scheme"), QStringLiteral("Settings"),
                    QStringLiteral("Fits"), QStringLiteral("Seconds")};
    synth.alignRight = {false, false, false, true, true};
    for (std::size_t i = 0; i < run.synthesizers.size(); ++i) {
        const auto& r = run.synthesizers[i];
        const auto* sc = c.find(r.name);
        synth.rows.push_back({str(r.name), str(std::string(study::toString(r.scheme))),
                              sc ? settingsOf(*sc) : QString(), QString::number(r.fits),
                              num(r.seconds, 3)});
    }
    s.blocks.push_back(ReportBlock::tableBlock(synth));
    return s;
}

ReportSection epsilonSection(const study::RunResult& run) {
    ReportSection s{QStringLiteral("epsilon"), QStringLiteral("Epsilon accounting"), {}};
    const int m = run.config.synthesis.m;
    s.blocks.push_back(ReportBlock::paragraph(
        QStringLiteral("Each synthetic dataset satisfies epsilon_x = 2 Delta_{alpha,x} for this "
                       "database, where Delta_{alpha,x} is the largest weighted absolute "
                       "log-likelihood of a record over the posterior draws; releasing all m = %1 "
                       "datasets spends m epsilon_x. For a guarantee over all databases like this "
                       "one the method recommends a safety factor s in [1, 1.05] when n >= 1000 "
                       "and [1.05, 1.10] below (paper 000, sec. 4.5).")
            .arg(m)));
    // Several sensitive variables: the weights act on each record's joint likelihood.
    if (run.config.data.targets.size() > 1)
        s.blocks.push_back(ReportBlock::paragraph(
            QStringLiteral("This run synthesized %1 sensitive variables together (%2). Their "
                           "record log-likelihood is the sum over the variables' conditionals, "
                           "so one epsilon covers the release of all of them: the figures below "
                           "are for the whole release, not per variable.")
                .arg(run.config.data.targets.size())
                .arg(list(run.config.data.targets))));
    ReportTable t;
    t.caption = QStringLiteral("Privacy budget per synthesizer");
    t.header = {QStringLiteral("Synthesizer"),
                QStringLiteral("Delta_x (unweighted)"),
                QStringLiteral("Delta_{alpha,x}"),
                QStringLiteral("epsilon per dataset"),
                QStringLiteral("epsilon converged"),
                QStringLiteral("epsilon for all m"),
                QStringLiteral("Delta estimate"),
                QStringLiteral("draws left out"),
                QStringLiteral("global epsilon per dataset"),
                QStringLiteral("global epsilon for all m")};
    t.alignRight = {false, true, true, true, false, true, false, true, true, true};
    for (const auto& r : run.synthesizers)
        t.rows.push_back({str(r.name), num(r.deltaX), num(r.deltaAlphaX), num(r.epsilon.perDataset),
                          convergedWord(r.epsilonDiagnostics), num(r.epsilon.total),
                          str(r.deltaMethod), QString::number(r.excludedDraws),
                          range(r.global.epsilonLow, r.global.epsilonHigh),
                          range(m * r.global.epsilonLow, m * r.global.epsilonHigh)});
    t.note = QStringLiteral(
        "Read across a row: the smaller epsilon, the stronger the guarantee. "
        "Draws left out are those above a quantile bound (robust option). An epsilon that did "
        "not converge is not settled: another run of the same configuration may give another "
        "value (see Convergence of epsilon below).");
    s.blocks.push_back(ReportBlock::tableBlock(t));
    s.blocks.push_back(ReportBlock::tableBlock(convergenceOfEpsilon(run)));
    const bool mixture = models::isMixtureFamily(run.config.model.family);
    for (const auto& r : run.synthesizers) {
        const auto& e = r.epsilonDiagnostics;
        if (e.diagnosed && !e.converged)
            s.blocks.push_back(
                ReportBlock::paragraph(QStringLiteral("%1: epsilon did not converge: %2.")
                                           .arg(str(r.name), joined(e.reasons))));
        if (const auto note = privacy::argmaxNote(e, mixture); !note.empty())
            s.blocks.push_back(
                ReportBlock::paragraph(QStringLiteral("%1: %2.").arg(str(r.name), str(note))));
    }

    for (const auto& r : run.synthesizers) {
        if (const auto* sd = r.scalar(); sd && !sd->tries.empty()) {
            ReportTable tries;
            tries.caption = QStringLiteral("%1: scalar weights tried").arg(str(r.name));
            tries.header = {QStringLiteral("a"), QStringLiteral("Delta_{a,x}"),
                            QStringLiteral("epsilon"), QStringLiteral("spread between chains")};
            tries.alignRight = {true, true, true, true};
            for (const auto& x : sd->tries)
                tries.rows.push_back({num(x.a, 6), num(x.delta), num(x.epsilon),
                                      x.spread > 0 ? num(100 * x.spread, 3) + QStringLiteral("%")
                                                   : QStringLiteral("-")});
            tries.note =
                QStringLiteral("The chosen a = %1 (the try closest to the target).%2")
                    .arg(num(sd->a, 6))
                    .arg(sd->noiseLimited
                             ? QStringLiteral(" The search stopped at the Monte Carlo noise of "
                                              "the bound (a maximum over draws): the refits' "
                                              "epsilon scatters by about %1 between chains, "
                                              "more than the tolerance, so closer tries would "
                                              "only follow that noise.")
                                   .arg(sd->noise > 0
                                            ? num(100 * sd->noise, 3) + QStringLiteral("%")
                                            : QStringLiteral("the tolerance or more"))
                             : QString());
            s.blocks.push_back(ReportBlock::tableBlock(tries));
        }
        if (const auto* rd = r.reweight(); rd && !rd->tries.empty()) {
            ReportTable tries;
            tries.caption = QStringLiteral("%1: re-weighting factors tried").arg(str(r.name));
            tries.header = {QStringLiteral("k"), QStringLiteral("Delta"),
                            QStringLiteral("keeps the bound")};
            tries.alignRight = {true, true, false};
            for (const auto& x : rd->tries)
                tries.rows.push_back({num(x.k, 6), num(x.delta),
                                      x.keeps ? QStringLiteral("yes") : QStringLiteral("no")});
            tries.note = QStringLiteral("The chosen k = %1.").arg(num(rd->k, 6));
            s.blocks.push_back(ReportBlock::tableBlock(tries));
        }
    }
    return s;
}

ReportSection riskSection(const study::RunResult& run, std::size_t topK) {
    ReportSection s{QStringLiteral("risk"), QStringLiteral("Identification risk"), {}};
    const auto& c = run.config;
    s.blocks.push_back(ReportBlock::paragraph(
        QStringLiteral("IR_i is the chance that an intruder who knows a record's known variables "
                       "(%1) and looks for synthetic values within %2%3 of its true value picks "
                       "the record out, averaged over L = %4 synthetic datasets. Records above "
                       "the threshold %5 are counted; whack-a-mole records are those whose risk "
                       "rose by more than %6 against the unweighted synthesizer.")
            .arg(list(c.data.known), num(c.risk.percentage ? 100 * c.risk.radius : c.risk.radius),
                 c.risk.percentage ? QStringLiteral("%") : QString())
            .arg(c.risk.L)
            .arg(num(c.risk.threshold), num(c.risk.whackAMoleRise))));
    ReportTable t;
    t.caption = QStringLiteral("Risk and weight summaries");
    t.header = {QStringLiteral("Synthesizer"),   QStringLiteral("mean IR"),
                QStringLiteral("median IR"),     QStringLiteral("IQR"),
                QStringLiteral("max IR"),        QStringLiteral("above threshold"),
                QStringLiteral("whack-a-mole"),  QStringLiteral("weight min"),
                QStringLiteral("weight median"), QStringLiteral("weight mean"),
                QStringLiteral("zero weights")};
    t.alignRight = std::vector<bool>(t.header.size(), true);
    t.alignRight[0] = false;
    const double n = static_cast<double>(run.inputs.recordCount());
    for (const auto& r : run.synthesizers) {
        const auto& ir = r.irSummary;
        t.rows.push_back({str(r.name), num(ir.mean), num(ir.median), num(ir.iqr), num(ir.max),
                          QStringLiteral("%1 (%2%)")
                              .arg(ir.aboveThreshold)
                              .arg(num(100.0 * static_cast<double>(ir.aboveThreshold) / n, 3)),
                          QString::number(r.records.whackAMole.size()), num(r.weights.min),
                          num(r.weights.median), num(r.weights.mean),
                          QString::number(r.weights.zeros)});
    }
    s.blocks.push_back(ReportBlock::tableBlock(t));

    const study::SynthesizerResult* unweighted = nullptr;
    for (const auto& r : run.synthesizers)
        if (r.scheme == study::Scheme::Unweighted) unweighted = &r;
    for (const auto& r : run.synthesizers) {
        ReportTable top;
        top.caption =
            QStringLiteral("%1: the %2 records with the highest risk").arg(str(r.name)).arg(topK);
        top.header = {QStringLiteral("Rank"),
                      QStringLiteral("Data row"),
                      QStringLiteral("Known variables"),
                      QStringLiteral("Records in pattern"),
                      QStringLiteral("y (confidential)"),
                      QStringLiteral("IR_i"),
                      QStringLiteral("IR_i unweighted"),
                      QStringLiteral("alpha_i"),
                      QStringLiteral("Delta_{alpha,x_i}")};
        top.alignRight = {true, true, false, true, true, true, true, true, true};
        std::vector<std::size_t> order = r.records.irTop;
        if (order.size() < topK) {  // the summary keeps 10; recompute when more are asked for
            order.resize(r.records.ir.size());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&r](std::size_t a, std::size_t b) {
                return r.records.ir[a] > r.records.ir[b];
            });
        }
        order.resize(std::min(order.size(), topK));
        for (std::size_t k = 0; k < order.size(); ++k) {
            const std::size_t i = order[k];
            const auto e = static_cast<Eigen::Index>(i);
            const auto pattern = static_cast<std::size_t>(run.inputs.patterns.id[i]);
            top.rows.push_back({QString::number(k + 1), QString::number(run.inputs.keptRows[i] + 1),
                                str(run.inputs.patterns.labels[pattern]),
                                QString::number(run.inputs.patterns.size(pattern)),
                                num(run.inputs.yOriginal[e], 8), num(r.records.ir[i]),
                                unweighted ? num(unweighted->records.ir[i]) : QStringLiteral("-"),
                                num(r.records.alpha[e]), num(r.records.recordDelta[e])});
        }
        top.note = QStringLiteral(
            "Record-level and confidential. A high IR_i with a small pattern means the record "
            "is easy to single out by its known variables.");
        s.blocks.push_back(ReportBlock::tableBlock(top));
    }
    return s;
}

ReportSection diagnosticsSection(const study::RunResult& run) {
    ReportSection s{QStringLiteral("diagnostics"), QStringLiteral("MCMC diagnostics"), {}};
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "Convergence after Vehtari et al. (2021): rank-normalized split R-hat (bulk and tail; "
        "below 1.01 is good), bulk and tail effective sample sizes (at least 100 per chain), "
        "divergent transitions (should be 0), tree-depth saturation and E-BFMI per chain "
        "(below 0.3 signals poor exploration). Mixtures are judged on label-invariant "
        "quantities.")));
    ReportTable t;
    t.caption = QStringLiteral("Sampler checks per synthesizer (the fit its datasets came from)");
    t.header = {QStringLiteral("Synthesizer"),    QStringLiteral("draws"),
                QStringLiteral("divergences"),    QStringLiteral("per chain"),
                QStringLiteral("max tree depth"), QStringLiteral("E-BFMI per chain"),
                QStringLiteral("max R-hat"),      QStringLiteral("min ESS bulk"),
                QStringLiteral("min ESS tail"),   QStringLiteral("draws per chain")};
    t.alignRight = {false, true, true, true, true, true, true, true, true, false};
    QStringList warnings;
    for (const auto& r : run.synthesizers) {
        const auto& d = r.diagnostics;
        QStringList perChain, ebfmi;
        for (int x : d.divergencesPerChain) perChain << QString::number(x);
        for (double e : d.ebfmi) ebfmi << num(e, 3);
        t.rows.push_back(
            {str(r.name), QString::number(d.draws), QString::number(d.divergences),
             perChain.isEmpty() ? QStringLiteral("-") : perChain.join(QStringLiteral(" / ")),
             QString::number(d.treeDepthSaturated),
             ebfmi.isEmpty() ? QStringLiteral("-") : ebfmi.join(QStringLiteral(" / ")),
             num(d.maxRhat), num(d.minEssBulk, 5), num(d.minEssTail, 5),
             str(study::keptDrawsText(run.config, d))});
        for (const auto& w : d.warnings) warnings << str(r.name) + QStringLiteral(": ") + str(w);
    }
    t.note = warnings.isEmpty()
                 ? QStringLiteral("The sampler raised no warnings.")
                 : QStringLiteral("Warnings: ") + warnings.join(QStringLiteral("; "));
    s.blocks.push_back(ReportBlock::tableBlock(t));

    constexpr std::size_t kWorst = 12;
    for (const auto& r : run.synthesizers) {
        std::vector<const mcmc::QuantityDiagnostics*> q;
        for (const auto& x : r.diagnostics.quantities) q.push_back(&x);
        if (q.empty()) continue;
        // Worst first: an R-hat that is not defined (constant draws) sorts last.
        std::stable_sort(q.begin(), q.end(), [](const auto* a, const auto* b) {
            const double ra = std::isfinite(a->summary.rhat) ? a->summary.rhat : 0;
            const double rb = std::isfinite(b->summary.rhat) ? b->summary.rhat : 0;
            return ra > rb;
        });
        ReportTable qt;
        qt.caption = QStringLiteral("%1: quantities by R-hat, worst first").arg(str(r.name));
        qt.header = {QStringLiteral("Quantity"),   QStringLiteral("mean"),
                     QStringLiteral("sd"),         QStringLiteral("R-hat bulk"),
                     QStringLiteral("R-hat tail"), QStringLiteral("ESS bulk"),
                     QStringLiteral("ESS tail")};
        qt.alignRight = {false, true, true, true, true, true, true};
        for (std::size_t k = 0; k < std::min(q.size(), kWorst); ++k) {
            const auto& x = q[k]->summary;
            qt.rows.push_back({str(q[k]->name), num(x.mean), num(x.sd), num(x.rhatBulk),
                               num(x.rhatTail), num(x.essBulk, 5), num(x.essTail, 5)});
        }
        if (q.size() > kWorst)
            qt.note = QStringLiteral("%1 more quantities, all with a smaller R-hat.")
                          .arg(q.size() - kWorst);
        s.blocks.push_back(ReportBlock::tableBlock(qt));

        if (!r.parameters.empty()) {
            ReportTable pt;
            pt.caption = QStringLiteral("%1: posterior summaries").arg(str(r.name));
            pt.header = {QStringLiteral("Parameter"), QStringLiteral("mean"),
                         QStringLiteral("sd"),        QStringLiteral("5%"),
                         QStringLiteral("median"),    QStringLiteral("95%")};
            pt.alignRight = {false, true, true, true, true, true};
            for (const auto& p : r.parameters)
                pt.rows.push_back(
                    {str(p.name), num(p.mean), num(p.sd), num(p.q05), num(p.median), num(p.q95)});
            s.blocks.push_back(ReportBlock::tableBlock(pt));
        }
    }
    return s;
}

}  // namespace ppsynth::ui::report
