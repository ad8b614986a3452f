# Use ccache when present: second builds of the per-file presets (dev, ci, asan) recompile
# only what changed. The targets use precompiled headers; ccache refuses to cache any source
# compiled with one unless its sloppiness includes pch_defines,time_macros (checked: without
# it 193 of 258 compiles were "uncacheable"). No source uses __DATE__/__TIME__, so
# time_macros is safe.
# The batch presets (release, ci-unity) turn it off: they build from a fresh clone, where an
# empty cache only costs (the GUI's first build: 432 s of CPU and 227 s wall through a cold
# cache, 357 s and 187 s without), and a batch's entry would hit only when none of its
# sources changed, which is when Ninja does not rebuild it anyway.
option(PPSYNTH_USE_CCACHE "Compile through ccache when it is installed" ON)
find_program(PPSYNTH_CCACHE ccache)
if(PPSYNTH_USE_CCACHE AND PPSYNTH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
    ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros ${PPSYNTH_CCACHE})
endif()
