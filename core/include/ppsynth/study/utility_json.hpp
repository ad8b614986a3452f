// The utility report as JSON: the "utility" object of each synthesizer in run.json and the
// output of `ppsynth-cli utility --json`. Key names are a contract (scripts outside the
// project, the report and the GUI read them back):
//   ecdf {U_m, U_a}, pmse {pmse, s_pmse, s_pmse_reference, ...},
//   regression [{term, original {estimate, lower, upper}, synthetic {...}, ci_overlap, ...}],
//   statistics [{name, original, synthetic, ci_overlap, per_dataset, ...}], parameters, warnings.
// Undefined numbers (NaN) are written as null and read back as NaN.
#pragma once

#include <string>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study {

std::string toJson(const UtilityReport& report, int indent = 2);

// Reads what toJson wrote (e.g. run.json's synthesizers.<name>.utility, dumped as text).
// Missing optional parts stay empty; a malformed document is an error naming the key.
Expected<UtilityReport> utilityReportFromJson(const std::string& text);

}  // namespace ppsynth::study
