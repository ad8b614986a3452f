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

# ppsynth_unity_groups(target root GROUP name folder... [GROUP name folder...] [SHARED name regex]):
# with PPSYNTH_UNITY, one batch per named group of the folders under `root` (a source's first
# folder below it picks its group; "." names the sources directly in `root`), and one batch,
# `name`, of the sources whose text matches `regex` wherever they live; sources of folders in no
# group share one more batch, `other`. Batches by what they instantiate, not by count: the
# sources that use nlohmann::json in one batch and the Eigen-heavy models in another took core
# from about 230 to 190-200 s of CPU, the GUI's charts apart from its windows 71 to 61 s
# (docs/performance.md, Building the programs).
function(ppsynth_unity_groups target root)
  if(NOT PPSYNTH_UNITY)
    return()
  endif()
  set(group "")
  set(mode "")
  set(shared_name "")
  set(shared_regex "")
  foreach(word IN LISTS ARGN)
    if(word STREQUAL "GROUP" OR word STREQUAL "SHARED")
      set(mode ${word})
      set(group "")
    elseif(mode STREQUAL "GROUP" AND group STREQUAL "")
      set(group ${word})
    elseif(mode STREQUAL "GROUP")
      set(folder_group_${word} ${group})
    elseif(mode STREQUAL "SHARED" AND shared_name STREQUAL "")
      set(shared_name ${word})
    elseif(mode STREQUAL "SHARED")
      set(shared_regex "${word}")
    endif()
  endforeach()
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    file(RELATIVE_PATH relative ${root} ${source})
    string(REGEX MATCH "^[^/]+/" folder "${relative}")
    string(REGEX REPLACE "/$" "" folder "${folder}")
    if(folder STREQUAL "")
      set(folder ".")
    endif()
    set(chosen "${folder_group_${folder}}")
    if(shared_regex)
      file(STRINGS ${source} hits REGEX "${shared_regex}" LIMIT_COUNT 1)
      if(hits)
        set(chosen ${shared_name})
      endif()
    endif()
    if(NOT chosen)
      set(chosen other)
    endif()
    set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${chosen})
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
