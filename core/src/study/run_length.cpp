#include "ppsynth/study/run_length.hpp"

namespace ppsynth::study {

std::string chainsAndDraws(const RunConfig& config) {
    const auto& m = config.mcmc;
    const std::string chains = std::to_string(m.chains) + (m.chains == 1 ? " chain" : " chains");
    if (!m.drawsAuto) return chains + " × " + std::to_string(m.draws) + " draws";
    return chains + ", draws until converged (blocks of " + std::to_string(m.draws) +
           " per chain, at most " + std::to_string(static_cast<long long>(m.budgetSeconds)) +
           " s per fit)";
}

std::string lengthText(const mcmc::RunDiagnostics& diagnostics) {
    const auto& u = diagnostics.untilConverged;
    if (u.blocks == 0) return "fixed";
    return "until converged: " + std::to_string(u.blocks) +
           (u.blocks == 1 ? " block, " : " blocks, ") + u.stopReason();
}

std::string keptDrawsText(const RunConfig& config, const mcmc::RunDiagnostics& diagnostics) {
    const int kept = mcmc::keptDrawsPerChain(diagnostics, config.mcmc.chains, config.mcmc.draws);
    if (diagnostics.untilConverged.blocks == 0) return std::to_string(kept);
    return std::to_string(kept) + " (" + lengthText(diagnostics) + ")";
}

}  // namespace ppsynth::study
