#!/bin/sh
# Makes the golden corpus of real exports in tests/data/exports: small files written by the
# tools agencies export with (pandas, R's write.csv / write.csv2, readr, haven), read by
# tst_export_corpus. Run once, from the repository root; the files are committed, so the
# tests need none of these tools. Needs the Debian packages python3-pandas, r-cran-readr
# and r-cran-haven (apt-get install python3-pandas r-cran-readr r-cran-haven).
#
# The same 12 rows everywhere: a float (single precision) column widened to double, as
# pandas and R hold values read from float storage (2.0499999523162842); a double column
# needing 17 significant digits (28651 + k/7); amounts over a thousand; tiny numbers (an
# exponent); counts; a text column; one missing cell in score, minutes and region.
set -eu
out=tests/data/exports
mkdir -p "$out"

/usr/bin/python3 - "$out" <<'PY'
import sys
import numpy as np
import pandas as pd

out = sys.argv[1]
k = np.arange(12)
score = (np.float32(2.05) + np.float32(0.37) * k.astype(np.float32)).astype(np.float64)
score[4] = np.nan
minutes = 28651.0 + k / 7.0
minutes[7] = np.nan
df = pd.DataFrame({
    "id": k + 1,
    "score": score,
    "minutes": minutes,
    "income": 1234.5 * (k + 1) ** 3 + 0.25,
    "tiny": 1.5e-07 * (k + 1),
    "visits": (k * 3) % 7,
    "region": ["north", "south", "east", None, "north", "south",
               "east", "north", "south", "east", "north", "south"],
})
df.to_csv(f"{out}/pandas_default.csv", index=False)
df.to_csv(f"{out}/pandas_float_format.csv", index=False, float_format="%.3f")
# 17 significant digits, the printf way to keep every double exact: 2.0499999523162842.
df.to_csv(f"{out}/pandas_17g.csv", index=False, float_format="%.17g")
# Non-finite values: pandas writes inf and -inf, and NaN as an empty cell.
pd.DataFrame({"x": [1.5, np.inf, -np.inf, np.nan, 2.25]}).to_csv(
    f"{out}/pandas_nonfinite.csv", index=False)
PY

Rscript --vanilla - "$out" <<'R'
out <- commandArgs(trailingOnly = TRUE)[1]
k <- 0:11
# Single precision and back, as values read from float storage are held.
as_float <- function(x) readBin(writeBin(x, raw(), size = 4), "double", size = 4, n = length(x))
score <- as_float(2.05 + 0.37 * k)
score[5] <- NA
minutes <- 28651 + k / 7
minutes[8] <- NA
df <- data.frame(
  id = k + 1L,
  score = score,
  minutes = minutes,
  income = 1234.5 * (k + 1)^3 + 0.25,
  tiny = 1.5e-07 * (k + 1),
  visits = as.integer((k * 3) %% 7),
  region = c("north", "south", "east", NA, "north", "south",
             "east", "north", "south", "east", "north", "south")
)
# write.csv: 15 significant digits, NA for missing, row names off.
write.csv(df, file.path(out, "r_write_csv.csv"), row.names = FALSE)
# readr: shortest text that reads back the same double (up to 17 digits).
readr::write_csv(df, file.path(out, "readr_write_csv.csv"))
# A European spreadsheet's CSV: ';', decimal comma, '.' grouping thousands.
eu <- df
for (col in c("score", "minutes", "income")) {
  v <- formatC(df[[col]], format = "f", digits = 2, big.mark = ".", decimal.mark = ",")
  v[is.na(df[[col]])] <- ""
  eu[[col]] <- v
}
eu$tiny <- NULL
write.table(eu, file.path(out, "european.csv"), sep = ";", row.names = FALSE, na = "",
            quote = FALSE)
# format(x, digits = 17) cell by cell: 17 significant digits.
d17 <- df
for (col in c("score", "minutes", "income", "tiny")) {
  d17[[col]] <- ifelse(is.na(df[[col]]), NA, formatC(df[[col]], digits = 17, format = "g"))
}
write.csv(d17, file.path(out, "r_digits17.csv"), row.names = FALSE, quote = FALSE)
# R's non-finite values: Inf, -Inf, NaN, and NA for missing.
write.csv(data.frame(x = c(1.5, Inf, -Inf, NaN, NA, 2.25)), file.path(out, "r_nonfinite.csv"),
          row.names = FALSE)
# write.csv2: ';' and decimal comma, no grouping.
write.csv2(df, file.path(out, "r_write_csv2.csv"), row.names = FALSE)

# SPSS and Stata through haven: value labels and dates.
library(haven)
lab <- data.frame(
  id = k + 1L,
  score = score,
  sex = labelled(c(1, 2, 1, 2, 2, 1, 1, 2, 1, 2, 2, 1), c(male = 1, female = 2)),
  visited = as.Date("2020-03-15") + k * 31,
  region = df$region
)
write_sav(lab, file.path(out, "haven.sav"))
write_dta(lab, file.path(out, "haven.dta"), version = 15)
R
ls -l "$out"
