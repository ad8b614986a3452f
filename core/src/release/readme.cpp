#include "release/readme.hpp"

#include <algorithm>
#include <sstream>

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/privacy/lipschitz.hpp"
#include "ppsynth/release/bundle.hpp"

namespace ppsynth::release::detail {

std::string roundedNumber(double v, int digits) {
    return data::formatSignificant(v, digits);
}

namespace {

bool hasFormat(const ManifestFacts& facts, const std::string& f) {
    return std::find(facts.formats.begin(), facts.formats.end(), f) != facts.formats.end();
}

// The name a column has in a format's files: its own, unless that format renamed it.
std::string nameIn(const ManifestFacts& facts, const std::string& format,
                   const std::string& column) {
    const auto it = facts.renamed.find(format);
    if (it != facts.renamed.end())
        for (const auto& [from, to] : it->second)
            if (from == column) return to;
    return column;
}

// The format the R example reads (CSV first) and the Stata one (.dta first).
std::string rFormat(const ManifestFacts& facts) {
    return hasFormat(facts, "csv") ? "csv" : hasFormat(facts, "dta") ? "dta" : "sav";
}
std::string stataFormat(const ManifestFacts& facts) {
    return hasFormat(facts, "dta") ? "dta" : hasFormat(facts, "csv") ? "csv" : "sav";
}
std::vector<std::string> namesIn(const ManifestFacts& facts, const std::string& format,
                                 const std::vector<std::string>& columns) {
    std::vector<std::string> out;
    for (const auto& c : columns) out.push_back(nameIn(facts, format, c));
    return out;
}

// R: read dataset l, its number zero-padded like the file names (datasetFileName).
std::string rReader(const ManifestFacts& facts) {
    const std::string name =
        "data/synthetic_%0" + std::to_string(datasetNumberWidth(facts.datasets)) + "d";
    const std::string format = rFormat(facts);
    // read.csv would rename columns R finds unsyntactic ("2nd wave" to X2nd.wave); the code
    // below names them as the files do.
    const std::string call = format == "csv"   ? "read.csv"
                             : format == "dta" ? "haven::read_dta"
                                               : "haven::read_sav";
    return call + "(sprintf(\"" + name + "." + format + "\", l)" +
           (format == "csv" ? ", check.names = FALSE)" : ")");
}

// Stata: the local f holds l zero-padded like the file names.
std::string stataNumber(const ManifestFacts& facts) {
    return "local f : display %0" + std::to_string(datasetNumberWidth(facts.datasets)) + ".0f `l'";
}

// "0.6", "percentage", "(sex, region)" or "(none)" for an empty list of names.
std::string knobText(const Manifest::Knob& knob) {
    if (const double* v = std::get_if<double>(&knob)) return roundedNumber(*v, 6);
    if (const std::string* word = std::get_if<std::string>(&knob)) return *word;
    const auto& names = std::get<std::vector<std::string>>(knob);
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return "(" + (s.empty() ? std::string("none") : s) + ")";
}

std::string stataReader(const ManifestFacts& facts) {
    const std::string format = stataFormat(facts);
    const std::string command = format == "dta"   ? "use"
                                : format == "csv" ? "import delimited"
                                                  : "import spss";
    return command + " \"data/synthetic_`f'." + format + "\", clear";
}

// The opening of the Stata loop that reads each of the m datasets in turn; `locals` are set
// before it (whole lines).
std::string stataLoopOpening(const ManifestFacts& facts, const std::string& ms,
                             const std::string& locals = {}) {
    return "  local m = " + ms + "\n" + locals + "  forvalues l = 1/`m' {\n      " +
           stataNumber(facts) + "\n      " + stataReader(facts) + "\n";
}

// "'a', 'b' and 'c'"
std::string quotedList(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t k = 0; k < names.size(); ++k)
        s += (k == 0 ? "'" : k + 1 == names.size() ? " and '" : ", '") + names[k] + "'";
    return s;
}

// "normal-mixture (K = 20)"
std::string modelText(const Manifest::Model& model) {
    std::string s = model.family;
    if (model.K) s += " (K = " + std::to_string(*model.K) + ")";
    return s;
}

// "log-shift (shift 3.5)"
std::string transformText(const Manifest::Transform& t) {
    std::string s = t.name;
    if (t.shift) s += " (shift " + roundedNumber(*t.shift, 6) + ")";
    return s;
}

// A name as an R string literal: "a", with \ and " escaped.
std::string rString(const std::string& name) {
    std::string s = "\"";
    for (const char c : name) {
        if (c == '"' || c == '\\') s += '\\';
        s += c;
    }
    return s + "\"";
}

// "c(\"a\", \"b\")" for R, "a b" for Stata.
std::string rVector(const std::vector<std::string>& names) {
    std::string s = "c(";
    for (std::size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + rString(names[k]);
    return s + ")";
}

std::string stataList(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t k = 0; k < names.size(); ++k) s += (k ? " " : "") + names[k];
    return s;
}

// The R and Stata examples with several synthesized variables: the mean of each one, every
// dataset read once, combined variable by variable.
std::string severalExamples(const ManifestFacts& facts) {
    const std::string ms = std::to_string(facts.datasets);
    std::ostringstream o;
    o << "In R (the mean of each synthesized variable; for a regression use coef() and\n"
         "vcov() of lm()):\n\n"
         "  m <- "
      << ms << "\n  vars <- " << rVector(namesIn(facts, rFormat(facts), facts.targets))
      << "\n"
         "  q <- u <- matrix(0, m, length(vars), dimnames = list(NULL, vars))\n"
         "  for (l in 1:m) {\n    d <- "
      << rReader(facts)
      << "\n"
         "    for (v in vars) {\n"
         "      q[l, v] <- mean(d[[v]])\n"
         "      u[l, v] <- var(d[[v]]) / nrow(d)\n"
         "    }\n"
         "  }\n"
         "  for (v in vars) {\n"
         "    qbar <- mean(q[, v]); b <- var(q[, v]); ubar <- mean(u[, v])\n"
         "    T <- ubar + b / m\n"
         "    df <- (m - 1) * (1 + ubar / (b / m))^2\n"
         "    cat(v, \"\\n\")\n"
         "    print(c(estimate = qbar, se = sqrt(T), df = df))\n"
         "    print(qbar + c(-1, 1) * qt(0.975, df) * sqrt(T))\n"
         "  }\n\n";
    o << "In Stata (the mean of each synthesized variable; for a regression use _b[] and\n"
         "_se[] after regress):\n\n"
      << stataLoopOpening(
             facts, ms,
             "  local vars " + stataList(namesIn(facts, stataFormat(facts), facts.targets)) + "\n")
      << "      quietly mean `vars'\n"
         "      local k = 0\n"
         "      foreach v of local vars {\n"
         "          local ++k\n"
         "          local q`k'_`l' = _b[`v']\n"
         "          local u`k'_`l' = _se[`v']^2\n"
         "      }\n"
         "  }\n"
         "  local k = 0\n"
         "  foreach v of local vars {\n"
         "      local ++k\n"
         "      local qbar = 0\n"
         "      local ubar = 0\n"
         "      forvalues l = 1/`m' {\n"
         "          local qbar = `qbar' + `q`k'_`l'' / `m'\n"
         "          local ubar = `ubar' + `u`k'_`l'' / `m'\n"
         "      }\n"
         "      local b = 0\n"
         "      forvalues l = 1/`m' {\n"
         "          local b = `b' + (`q`k'_`l'' - `qbar')^2 / (`m' - 1)\n"
         "      }\n"
         "      local T = `ubar' + `b' / `m'\n"
         "      local df = (`m' - 1) * (1 + `ubar' / (`b' / `m'))^2\n"
         "      display \"`v': estimate \" `qbar' \"  se \" sqrt(`T') \"  df \" `df'\n"
         "      local h = invttail(`df', 0.025) * sqrt(`T')\n"
         "      display \"95% interval \" `qbar' - `h' \" to \" `qbar' + `h'\n"
         "  }\n\n";
    return o.str();
}
}  // namespace

std::string readmeText(const Manifest& manifest, const ManifestFacts& facts) {
    const std::size_t m = facts.datasets;
    const std::string ms = std::to_string(m);
    const std::string& y = facts.target;
    const bool several = facts.targets.size() > 1;
    const double eps = manifest.privacy.epsilonPerDataset;
    const privacy::GlobalEpsilon global = privacy::globalEpsilon(eps / 2.0, facts.records);
    const auto md = static_cast<double>(m);
    std::ostringstream o;

    o << "SYNTHETIC DATA RELEASE\n"
         "======================\n\n"
         "Made with ppsynth "
      << manifest.softwareVersion << " on "
      << (manifest.createdUtc.empty() ? currentUtcIso8601() : manifest.createdUtc)
      << ".\n\n"
         "What these data are\n"
         "-------------------\n"
         "These are partially synthetic data. They have the same "
      << facts.records
      << " records and the same\n"
         "predictor columns as the confidential data, but the values of ";
    if (several)
        o << "the columns\n"
          << quotedList(facts.targets)
          << "\nwere replaced by values drawn from a statistical model fitted to the "
             "confidential\ndata (each given the predictors and the synthetic values of the "
             "ones before it).\nA value of any of them in a row is therefore NOT the true value "
             "for that record:\n";
    else
        o << "the column '" << y
          << "'\nwere replaced by values drawn from a statistical model fitted to the "
             "confidential\ndata. A value of '"
          << y << "' in a row is therefore NOT the true value for that record:\n";
    o << "do not use single rows to learn about individuals. The data keep the patterns\n"
         "the model captured (means, spreads, relations with the predictors), and\n"
         "analyses of them give valid results when the datasets are combined as below.\n\n"
         "Released columns: ";
    if (several)
        for (std::size_t k = 0; k < facts.targets.size(); ++k)
            o << (k ? ", " : "") << facts.targets[k] << " (synthetic)";
    else
        o << y << " (synthetic)";
    for (const auto& p : facts.predictors) o << ", " << p;
    o << ".\n\n"
         "There are m = "
      << ms << " synthetic datasets, each drawn independently from the model:\n";
    for (const auto& f : facts.files) o << "  " << f << "\n";
    o << "Different formats of the same dataset number hold the same data.\n";
    for (const auto& [format, pairs] : facts.renamed) {
        o << "In the " << (format == "dta" ? "Stata (.dta)" : "SPSS (.sav)")
          << " files some columns have other names, as that format requires:";
        for (std::size_t k = 0; k < pairs.size(); ++k)
            o << (k ? ", " : " ") << pairs[k].first << " is " << pairs[k].second;
        o << ".\n";
    }
    o << "manifest.json records how the data were made (model, priors, mechanism,\n"
         "settings, seeds, privacy accounting). SHA256SUMS lets you check that no file\n"
         "was changed: run `sha256sum -c SHA256SUMS` in this folder.\n\n";

    o << "Privacy\n"
         "-------\n"
         "Each synthetic dataset on its own satisfies a record-level privacy guarantee\n"
         "of epsilon = "
      << roundedNumber(eps)
      << " for this database (a smaller epsilon means stronger protection).\n"
         "Releasing all "
      << ms << " datasets together spends " << ms << " x " << roundedNumber(eps) << " = "
      << roundedNumber(md * eps)
      << ":\nthat total is the guarantee for this bundle. Other releases from the same\n"
         "confidential data (another synthesizer's datasets, another bundle) add their\n"
         "epsilon to it: the guarantee for everything published is the sum.\n"
         "epsilon = 2 x Delta, where Delta (the sensitivity) is the largest weighted\n"
         "absolute log-likelihood of a record, taken as the "
      << manifest.privacy.deltaEstimate
      << ".\n"
         "For a guarantee over all databases like this one, the method's authors\n"
         "recommend a safety factor s in ["
      << roundedNumber(global.safetyLow) << ", " << roundedNumber(global.safetyHigh) << "] ("
      << (facts.records >= 1000 ? "n >= 1000" : "n < 1000") << "), that is\nepsilon between "
      << roundedNumber(global.epsilonLow) << " and " << roundedNumber(global.epsilonHigh)
      << " per dataset,\nand between " << roundedNumber(md * global.epsilonLow) << " and "
      << roundedNumber(md * global.epsilonHigh) << " for all " << ms << " datasets.\n";
    if (several)
        o << "This one epsilon covers the release of all " << facts.targets.size()
          << " synthetic variables\n(" << quotedList(facts.targets)
          << ") together, per dataset and for all " << ms
          << " datasets:\nit is not an epsilon per variable, and there is no other to add for "
             "them.\n";
    o << "\n";

    o << "How to analyse the data\n"
         "-----------------------\n"
         "Run your analysis on EACH of the m datasets, then combine the results with the\n"
         "combining rules for partially synthetic data (Reiter 2003, Survey Methodology\n"
         "29(2), 181-188). For one quantity (a mean, a regression coefficient), with q_l\n"
         "its estimate and u_l its estimated variance (squared standard error) in\n"
         "dataset l = 1..m:\n\n"
         "  qbar = (q_1 + ... + q_m) / m                 the estimate\n"
         "  b    = sum of (q_l - qbar)^2 / (m - 1)       between-dataset variance\n"
         "  ubar = (u_1 + ... + u_m) / m                 mean within-dataset variance\n"
         "  T    = ubar + b / m                          variance of qbar\n"
         "  df   = (m - 1) * (1 + ubar / (b / m))^2      degrees of freedom\n\n"
         "A 95% interval is qbar +/- t(df, 0.975) * sqrt(T). (When b = 0, df is infinite:\n"
         "use the normal quantile 1.96.) Do not pool the datasets into one and analyse it\n"
         "as if it were real data: the standard errors would be wrong.\n";
    if (m < 2)
        o << "NOTE: this release has only one dataset, so b cannot be estimated and the\n"
             "rules above do not apply; standard errors from it understate the uncertainty.\n";
    o << "\n"
         "Worked example with made-up numbers, m = 3:\n"
         "  q = 2.0, 2.4, 2.2    u = 0.10, 0.12, 0.11\n"
         "  qbar = 2.2    b = (0.04 + 0.04 + 0) / 2 = 0.04    ubar = 0.11\n"
         "  T = 0.11 + 0.04 / 3 = 0.12333    df = 2 * (1 + 0.11 / (0.04 / 3))^2 = 171.125\n"
         "  95% interval: 2.2 +/- 1.974 * sqrt(0.12333) = [1.507, 2.893]\n\n";

    if (several) {
        o << severalExamples(facts);
    } else {
        // d[["name"]] rather than d$name: any column name works there.
        const std::string yR = "d[[" + rString(nameIn(facts, rFormat(facts), y)) + "]]";
        const std::string yStata = nameIn(facts, stataFormat(facts), y);
        o << "In R (the mean of " << y
          << "; for a regression use coef() and vcov() of lm()):\n\n"
             "  m <- "
          << ms << "\n  q <- u <- numeric(m)\n  for (l in 1:m) {\n    d <- " << rReader(facts)
          << "\n    q[l] <- mean(" << yR << ")\n    u[l] <- var(" << yR << ") / nrow(d)\n  }\n"
          << "  qbar <- mean(q); b <- var(q); ubar <- mean(u)\n"
             "  T <- ubar + b / m\n"
             "  df <- (m - 1) * (1 + ubar / (b / m))^2\n"
             "  c(estimate = qbar, se = sqrt(T), df = df)\n"
             "  qbar + c(-1, 1) * qt(0.975, df) * sqrt(T)\n\n";

        o << "In Stata (the mean of " << y
          << "; for a regression use _b[] and _se[] after regress):\n\n"
          << stataLoopOpening(facts, ms) << "      quietly mean " << yStata
          << "\n"
             "      local q`l' = _b["
          << yStata
          << "]\n"
             "      local u`l' = _se["
          << yStata
          << "]^2\n"
             "  }\n"
             "  local qbar = 0\n"
             "  local ubar = 0\n"
             "  forvalues l = 1/`m' {\n"
             "      local qbar = `qbar' + `q`l'' / `m'\n"
             "      local ubar = `ubar' + `u`l'' / `m'\n"
             "  }\n"
             "  local b = 0\n"
             "  forvalues l = 1/`m' {\n"
             "      local b = `b' + (`q`l'' - `qbar')^2 / (`m' - 1)\n"
             "  }\n"
             "  local T = `ubar' + `b' / `m'\n"
             "  local df = (`m' - 1) * (1 + `ubar' / (`b' / `m'))^2\n"
             "  display \"estimate \" `qbar' \"  se \" sqrt(`T') \"  df \" `df'\n"
             "  local h = invttail(`df', 0.025) * sqrt(`T')\n"
             "  display \"95% interval \" `qbar' - `h' \" to \" `qbar' + `h'\n\n";
    }

    o << "How the data were made\n"
         "----------------------\n"
         "";
    if (several) {
        o << "Synthesized in this order, each variable drawn given the predictors and the\n"
             "synthetic values of the ones before it:\n";
        for (std::size_t k = 0; k < facts.targets.size(); ++k) {
            o << "  " << k + 1 << ". " << facts.targets[k];
            for (const auto& v : manifest.variables)
                if (v.name == facts.targets[k])
                    o << ": model " << modelText(v.model) << "; transform "
                      << transformText(v.transform);
            o << "\n";
        }
        o << "Mechanism: ";
    } else {
        o << "Model: " << modelText(manifest.model) << "; transform of " << y << ": "
          << transformText(manifest.transform) << ".\nMechanism: ";
    }
    o << manifest.mechanism.synthesizer << " (" << manifest.mechanism.scheme << ")";
    if (!manifest.mechanism.knobs.empty()) {
        o << " with";
        bool first = true;
        for (const auto& [k, v] : manifest.mechanism.knobs) {
            o << (first ? " " : ", ") << k << " = " << knobText(v);
            first = false;
        }
    }
    o << ".\nSee manifest.json for priors, sampler settings and seeds.\n";
    if (!manifest.notes.empty()) {
        o << "\nNotes\n-----\n";
        for (const auto& n : manifest.notes) o << "- " << n << "\n";
    }
    return o.str();
}

}  // namespace ppsynth::release::detail
