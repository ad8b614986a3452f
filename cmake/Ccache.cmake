# Use ccache when present: CI and second builds recompile only what changed.
find_program(PPSYNTH_CCACHE ccache)
if(PPSYNTH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${PPSYNTH_CCACHE})
endif()
