// `ppsynth-cli release RUNDIR --synthesizer NAME --out BUNDLE [--format csv,sav,dta]
// [--overwrite] [--data FILE] [--accept-unconverged]`: one synthesizer's synthetic datasets as a
// release bundle (manifest, README for data users, SHA-256 checksums), written atomically.
#include <iostream>

#include "cli_commands.hpp"
#include "cli_guard.hpp"
#include "cli_progress.hpp"
#include "ppsynth/release/from_run.hpp"
#include "ppsynth/study/public_run.hpp"
#include "ppsynth/study/run_loader.hpp"

namespace ppsynth::cli {

namespace {

struct ReleaseArgs {
    std::string runDir, synthesizer, out, formats = "csv", data;
    bool overwrite = false, acceptUnconverged = false;
};

int runRelease(const ReleaseArgs& a) {
    if (int refused = refuseBundleInBundle(a.out, "--out"); refused != 0) return refused;
    // Before the run folder and its data are read.
    if (int refused = refuseUnwritable(a.out, "--out", DestinationUse::Replaced); refused != 0)
        return refused;
    warnAboutLeftovers(a.out);
    const auto& cancel = installCancelHandler();
    auto formats = release::parseReleaseFormats(a.formats);
    if (!formats) return std::cerr << "error: --format: " << formats.message() << "\n", 1;
    study::LoadOptions lo;
    lo.dataPath = a.data;
    lo.draws = false;
    lo.syntheticFor = {a.synthesizer};
    lo.progress = stderrProgress(cancel);
    auto loaded = study::loadRunFolder(a.runDir, lo);
    if (!loaded) return std::cerr << "error: " << loaded.message() << "\n", cancel.load() ? 130 : 1;
    release::ReleaseOptions ro;
    ro.overwrite = a.overwrite;
    ro.acceptUnconverged = a.acceptUnconverged;
    ro.progress = stderrProgress(cancel);
    ro.warning = [](const std::string& w) { std::cerr << "warning: " << w << "\n"; };
    if (auto s =
            release::releaseFromRun(loaded->run, loaded->table, a.synthesizer, a.out, *formats, ro);
        !s) {
        if (cancel.load()) return std::cerr << "cancelled: nothing was written\n", 130;
        std::cerr << "error: " << s.message();
        if (!a.overwrite && s.kind() == ErrorKind::AlreadyExists)
            std::cerr << " (--overwrite replaces an earlier bundle)";
        return std::cerr << "\n", 1;
    }
    const study::PublicRun run(loaded->run);
    const study::PublicResult* r = run.find(a.synthesizer);
    if (const std::string why = release::unconvergedEpsilon(*r); !why.empty())
        std::cerr << "warning: the epsilon of '" << a.synthesizer << "' did not converge (" << why
                  << "); released as --accept-unconverged asked, and manifest.json records it\n";
    std::cerr << "wrote " << a.out << "\n";
    std::cout << a.synthesizer << ": " << r->synthetic.size() << " synthetic datasets x "
              << formats->size() << " formats; epsilon " << r->epsilon.perDataset
              << " per dataset, " << r->epsilon.total << " for all " << r->epsilon.m << "\n";
    return 0;
}

const RegisterCommand registerRelease([](CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ReleaseArgs>();
    auto* cmd = app.add_subcommand(
        "release",
        "Write one synthesizer's synthetic datasets of a finished run as a release "
        "bundle (data, manifest.json, README.txt, SHA256SUMS)");
    cmd->add_option("rundir", args->runDir, "Run folder written by 'ppsynth-cli run --out'")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--synthesizer", args->synthesizer, "The synthesizer to release")->required();
    cmd->add_option("--out", args->out, "Bundle folder to create")->required();
    cmd->add_option("--format", args->formats, "Data formats, comma-separated: csv, sav, dta")
        ->capture_default_str();
    cmd->add_flag("--overwrite", args->overwrite, "Replace an existing bundle");
    cmd->add_flag("--accept-unconverged", args->acceptUnconverged,
                  "Release even when the run judged the synthesizer's epsilon not converged "
                  "(the manifest records it)");
    cmd->add_option("--data", args->data,
                    "The run's data file, when it moved (its contents must be unchanged)");
    cmd->callback([args, &exitCode] { exitCode = runRelease(*args); });
});

}  // namespace
}  // namespace ppsynth::cli
