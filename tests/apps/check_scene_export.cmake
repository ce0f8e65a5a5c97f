# Two runs whose time series must be the same bytes (cmake -P script, used by the cli.scene_bits.* tests):
# `noether export EXPORT > DIR/s.json` first when EXPORT is given, then `noether run RUN_A --out DIR/a`
# and `noether run RUN_B --out DIR/b` (both with --threads 1 --vtk off: the drawings are a function of
# the rows' states and would only add minutes), then the two timeseries.csv and final_state.json compared.
#   PROGRAM       the noether executable
#   EXPORT        a scenario to export to DIR/s.json, with its options separated by '|' (optional)
#   RUN_A, RUN_B  the arguments of the two runs after `run`, separated by '|' (DIR/s.json names the export)
#   DIR           a scratch directory (removed first)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
if(DEFINED EXPORT)
  string(REPLACE "|" ";" export_arguments "${EXPORT}")
  execute_process(COMMAND "${PROGRAM}" export ${export_arguments} OUTPUT_FILE "${DIR}/s.json" RESULT_VARIABLE code
                  ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "noether export ${EXPORT} failed (${code}): ${err}")
  endif()
endif()
foreach(run a b)
  if(run STREQUAL "a")
    string(REPLACE "|" ";" arguments "${RUN_A}")
  else()
    string(REPLACE "|" ";" arguments "${RUN_B}")
  endif()
  execute_process(COMMAND "${PROGRAM}" run ${arguments} --threads 1 --vtk off --out "${DIR}/${run}" RESULT_VARIABLE code
                  OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "noether run ${arguments} ended with ${code}: ${err}")
  endif()
endforeach()
foreach(file timeseries.csv final_state.json)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DIR}/a/${file}" "${DIR}/b/${file}" RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "the ${file} of `noether run ${RUN_A}` and `noether run ${RUN_B}` differ (${DIR})")
  endif()
endforeach()
