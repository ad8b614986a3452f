# ppsynth_unity(target batch): with PPSYNTH_UNITY, compile the target's sources in batches of
# `batch` files (CMake unity build). A cold build then parses the precompiled header and
# instantiates the same Eigen, Boost and Qt templates once per batch instead of once per file.
# The release preset (scripts/run.sh, a cold build of the two programs) turns it on; dev and
# ci keep one object per source, so an edit recompiles one file and ccache keeps per-file hits.
# Sources of one batch share a translation unit: names in anonymous namespaces must differ
# across the sources of a target.
option(PPSYNTH_UNITY "Compile ppsynth_core, ppsynth_ui and ppsynth-cli in batches (unity build)" OFF)
function(ppsynth_unity target batch)
  if(PPSYNTH_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  endif()
endfunction()
