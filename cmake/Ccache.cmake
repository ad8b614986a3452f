# Use ccache when present: CI and second builds recompile only what changed.
# The targets use precompiled headers; ccache refuses to cache any source compiled with one
# unless its sloppiness includes pch_defines,time_macros (checked: without it 193 of 258
# compiles were "uncacheable"). No source uses __DATE__/__TIME__, so time_macros is safe.
find_program(PPSYNTH_CCACHE ccache)
if(PPSYNTH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
    ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros ${PPSYNTH_CCACHE})
endif()
