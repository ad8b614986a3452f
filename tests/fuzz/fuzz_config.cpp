// libFuzzer target for the configuration readers: run, sweep and simulation configurations
// and the data.read section, which share one JSON reader (comments allowed, a key given
// twice refused, unknown keys refused). The whole input is offered to each of them. Beyond
// "no crash, no sanitizer report" it checks that every refusal has a message and that an
// accepted configuration's canonical JSON reads back to the same canonical JSON.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ppsynth/study/config_json.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"

using namespace ppsynth;
using namespace ppsynth::study;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_config invariant broken: %s\n%s\n", what, detail.c_str());
    std::abort();
}

// A refusal says why; an acceptance writes text that reads back to itself.
template <typename Config, typename Parse, typename Write>
void check(const char* kind, const Expected<Config>& first, Parse parse, Write write) {
    if (!first) {
        if (first.message().empty()) fail("refusal without a message", kind);
        return;
    }
    const std::string text1 = write(*first);
    auto second = parse(text1);
    if (!second) fail("canonical JSON does not read back", second.message() + "\n" + text1);
    const std::string text2 = write(*second);
    if (text1 != text2) fail("write(read(write(c))) differs", text1 + "\n----\n" + text2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);

    check(
        "run", parseRunConfig(text), [](const std::string& t) { return parseRunConfig(t); },
        [](const RunConfig& c) { return toJson(c); });
    check(
        "sweep", parseSweepConfig(text), [](const std::string& t) { return parseSweepConfig(t); },
        [](const SweepConfig& c) { return toJson(c); });
    check(
        "simulate", parseSimulateConfig(text),
        [](const std::string& t) { return parseSimulateConfig(t); },
        [](const SimulateConfig& c) { return toJson(c); });

    auto read = parseDataRead(text);
    if (!read && read.message().empty()) fail("refusal without a message", "data.read");

    // The check the GUI's project reader uses: a refusal names the key.
    if (auto s = checkUniqueKeys(text, "project");
        !s && s.message().find("appears twice") == std::string::npos)
        fail("a key check refused for another reason", s.message());
    return 0;
}
