# Runs the noether program once and checks how it ended (cmake -P script, used by the cli.* tests).
#   PROGRAM       the noether executable
#   ARGS          its arguments, separated by '|'
#   EXIT_CODE     the exit code required
#   STDERR_REGEX  when given, stderr must be exactly one line matching it; otherwise stderr must be empty
#   STDOUT_REGEX  when given, stdout must match it
#   OUT_DIR       when given: removed before the run, must hold summary.json and timeseries.csv after it
string(REPLACE "|" ";" arguments "${ARGS}")
if(DEFINED OUT_DIR)
  file(REMOVE_RECURSE "${OUT_DIR}")
endif()
execute_process(COMMAND "${PROGRAM}" ${arguments} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failures "")
if(NOT code STREQUAL EXIT_CODE)
  string(APPEND failures "exit code ${code}, expected ${EXIT_CODE}\n")
endif()
if(DEFINED STDERR_REGEX)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1 OR NOT err MATCHES "\n$" OR NOT err MATCHES "${STDERR_REGEX}")
    string(APPEND failures "stderr is not one line matching '${STDERR_REGEX}'\n")
  endif()
elseif(NOT err STREQUAL "")
  string(APPEND failures "stderr is not empty\n")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  string(APPEND failures "stdout does not match '${STDOUT_REGEX}'\n")
endif()
if(DEFINED OUT_DIR)
  foreach(file summary.json timeseries.csv)
    if(NOT EXISTS "${OUT_DIR}/${file}")
      string(APPEND failures "${OUT_DIR}/${file} was not written\n")
    endif()
  endforeach()
endif()
if(NOT failures STREQUAL "")
  string(REPLACE "|" " " command_line "${ARGS}")
  message(FATAL_ERROR "noether ${command_line}\n${failures}--- stdout:\n${out}--- stderr:\n${err}")
endif()
