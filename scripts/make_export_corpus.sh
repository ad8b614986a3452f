#!/bin/sh
# Makes the golden corpus of real exports in tests/data/exports: small files written by the
# tools agencies export with (pandas, R's write.csv / write.csv2, readr, haven, LibreOffice
# Calc), read by tst_export_corpus. Run once, from the repository root; the files are
# committed, so the tests need none of these tools. Needs the Debian packages python3-pandas,
# r-cran-readr and r-cran-haven (apt-get install python3-pandas r-cran-readr r-cran-haven),
# and for the LibreOffice file libreoffice-calc-nogui (skipped with a message without it).
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

# LibreOffice Calc in a German locale (the spreadsheet and LibreOffice's own locale de-DE),
# saved as "Text CSV" with ';' as separator, as a German user saves it: numbers as shown,
# so a decimal comma everywhere, '.' grouping thousands in the columns formatted #.##0,00,
# a scientific format 0,00E-00, and general-format cells with up to 15 significant digits.
# The spreadsheet is written as flat ODS (.fods) from the same 12 rows; only the CSV is kept.
if command -v soffice >/dev/null 2>&1; then
  work=$(mktemp -d)
  /usr/bin/python3 - "$work/libreoffice_de.fods" <<'PY'
import sys
from xml.sax.saxutils import escape
import numpy as np

k = np.arange(12)
score = (np.float32(2.05) + np.float32(0.37) * k.astype(np.float32)).astype(np.float64)
region = ["north", "south", "east", None, "north", "south",
          "east", "north", "south", "east", "north", "south"]


def number(v, style=None):
    if v is None:
        return "<table:table-cell/>"
    s = f' table:style-name="{style}"' if style else ""
    return f'<table:table-cell{s} office:value-type="float" office:value="{float(v)!r}"/>'


def text(v):
    if v is None:
        return "<table:table-cell/>"
    return ('<table:table-cell office:value-type="string"><text:p>'
            f"{escape(v)}</text:p></table:table-cell>")


rows = ["".join(text(h) for h in
                ["id", "score", "minutes", "income", "tiny", "visits", "region"])]
for i in range(12):
    rows.append(number(i + 1) + number(None if i == 4 else score[i])
                + number(None if i == 7 else 28651.0 + i / 7.0, "grouped")
                + number(1234.5 * (i + 1) ** 3 + 0.25, "grouped")
                + number(1.5e-07 * (i + 1), "scientific") + number((i * 3) % 7)
                + text(region[i]))
body = "\n".join(f"<table:table-row>{r}</table:table-row>" for r in rows)
ns = "urn:oasis:names:tc:opendocument:xmlns:"
open(sys.argv[1], "w", encoding="utf-8").write(f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="{ns}office:1.0" xmlns:style="{ns}style:1.0"
 xmlns:text="{ns}text:1.0" xmlns:table="{ns}table:1.0" xmlns:number="{ns}datastyle:1.0"
 xmlns:fo="{ns}xsl-fo-compatible:1.0" office:version="1.3"
 office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:styles><style:default-style style:family="table-cell">
 <style:text-properties fo:language="de" fo:country="DE"/></style:default-style></office:styles>
<office:automatic-styles>
 <number:number-style style:name="n1" number:language="de" number:country="DE">
  <number:number number:decimal-places="2" number:min-decimal-places="2"
   number:min-integer-digits="1" number:grouping="true"/></number:number-style>
 <number:number-style style:name="n2" number:language="de" number:country="DE">
  <number:scientific-number number:decimal-places="2" number:min-decimal-places="2"
   number:min-integer-digits="1" number:min-exponent-digits="2"/></number:number-style>
 <style:style style:name="grouped" style:family="table-cell" style:data-style-name="n1"/>
 <style:style style:name="scientific" style:family="table-cell" style:data-style-name="n2"/>
</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="survey">
<table:table-column table:number-columns-repeated="7"/>
{body}
</table:table></office:spreadsheet></office:body></office:document>
""")
PY
  # Filter options as the Text CSV dialog's defaults with ';': ';' (59) between fields, '"'
  # (34) around text that needs it, UTF-8 (76), line 1, no column formats, German (1031),
  # "quote all text cells" off; a throwaway profile so no one's own settings play a part.
  LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 soffice -env:UserInstallation="file://$work/profile" \
    --headless --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1,,1031,false' \
    --outdir "$work" "$work/libreoffice_de.fods" >/dev/null 2>&1
  cp "$work/libreoffice_de.csv" "$out/libreoffice_de.csv"
  rm -rf "$work"
else
  echo "soffice not found: libreoffice_de.csv kept as it is" \
    "(apt-get install libreoffice-calc-nogui to make it)" >&2
fi
ls -l "$out"
