# ppsynth_warnings(target): the project's warning set, errors when PPSYNTH_WERROR is on.
function(ppsynth_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wdouble-promotion -Wimplicit-fallthrough)
  if(PPSYNTH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
