# Warnings on for every Noether target; -Werror is left to CI-like builds via NOETHER_WERROR.
option(NOETHER_WERROR "Treat warnings as errors" OFF)
function(noether_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
                                           -Wdouble-promotion)
  if(NOETHER_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
