# Link with lld when the compiler accepts -fuse-ld=lld (Debian: package lld). GNU ld
# spends seconds on each of the ~60 executables that pull in Qt, Eigen and the core
# library; lld does the same links several times faster. CMake 3.25 has no
# CMAKE_LINKER_TYPE, hence the flag. PPSYNTH_LLD=OFF keeps the default linker.
option(PPSYNTH_LLD "Link with lld when the compiler accepts -fuse-ld=lld" ON)
if(PPSYNTH_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" PPSYNTH_HAVE_LLD)
  if(PPSYNTH_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
