# PPSYNTH_SANITIZE="address;undefined" instruments every target. Thread and memory
# sanitizers do not combine with address: refuse rather than build something misleading.
if(PPSYNTH_SANITIZE)
  if("thread" IN_LIST PPSYNTH_SANITIZE AND "address" IN_LIST PPSYNTH_SANITIZE)
    message(FATAL_ERROR "PPSYNTH_SANITIZE: 'thread' cannot be combined with 'address'")
  endif()
  list(JOIN PPSYNTH_SANITIZE "," _ppsynth_san)
  add_compile_options(-fsanitize=${_ppsynth_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_ppsynth_san})
endif()
