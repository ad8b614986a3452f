// Small CSV tables of study results (private to core/study): a header, then rows of
// numbers and texts, numbers in shortest round-trip form and texts quoted when needed.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "ppsynth/data/number_format.hpp"

namespace ppsynth::study::detail {

class CsvText {
  public:
    // A number or a text (a plain struct: GCC 12 misreports std::variant<double, string>
    // as maybe-uninitialized under -O2).
    struct Cell {
        Cell(double v) : number(v) {}                              // NOLINT: implicit by design
        Cell(std::string v) : text(std::move(v)), isText(true) {}  // NOLINT: implicit by design
        Cell(const char* v) : text(v), isText(true) {}             // NOLINT: implicit by design
        double number = 0;
        std::string text;
        bool isText = false;
    };

    explicit CsvText(const std::vector<std::string>& header) { row(toCells(header)); }

    void row(const std::vector<Cell>& cells) {
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i) out_ << ',';
            const Cell& c = cells[i];
            if (c.isText)
                out_ << quoted(c.text);
            else
                out_ << (std::isfinite(c.number) ? data::formatNumber(c.number)
                                                 : std::string("NA"));
        }
        out_ << '\n';
    }
    std::string str() const { return out_.str(); }

  private:
    static std::vector<Cell> toCells(const std::vector<std::string>& texts) {
        return {texts.begin(), texts.end()};
    }
    static std::string quoted(const std::string& s) {
        if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
        std::string q = "\"";
        for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    }
    std::ostringstream out_;
};

}  // namespace ppsynth::study::detail
