# The command-line program's tests (docs/cli.md): each runs `noether` as a user would and checks
# its exit code, its messages and its output files. Included by tests/CMakeLists.txt when the
# program is built (target noether_cli).

# noether_cli_test(NAME n EXIT_CODE c [STDERR regex] [STDOUT regex] [PREFIX shell-commands]
#                  [WRITES_OUTPUT [OUT_FILES "a|b" | "none"] [SUMMARY regex]] ARGS ...):
# runs `noether ARGS` (plus --out DIR with WRITES_OUTPUT) through tests/apps/check_cli.cmake,
# which says what each check means. PREFIX must not contain ';' (join commands with &&).
function(noether_cli_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "WRITES_OUTPUT" "NAME;EXIT_CODE;STDERR;STDOUT;PREFIX;OUT_FILES;SUMMARY" "ARGS")
  set(defines -DPROGRAM=$<TARGET_FILE:noether_cli> -DEXIT_CODE=${T_EXIT_CODE})
  foreach(option STDERR STDOUT SUMMARY)
    if(DEFINED T_${option})
      list(APPEND defines "-D${option}_REGEX=${T_${option}}")
    endif()
  endforeach()
  foreach(option PREFIX OUT_FILES)
    if(DEFINED T_${option})
      list(APPEND defines "-D${option}=${T_${option}}")
    endif()
  endforeach()
  if(T_WRITES_OUTPUT)
    set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/cli_test_output/${T_NAME})
    list(APPEND T_ARGS --out ${out_dir})
    list(APPEND defines -DOUT_DIR=${out_dir})
  endif()
  list(JOIN T_ARGS "|" joined)
  add_test(NAME cli.${T_NAME} COMMAND ${CMAKE_COMMAND} ${defines} "-DARGS=${joined}"
           -P ${PROJECT_SOURCE_DIR}/tests/apps/check_cli.cmake)
endfunction()

set(usage "^noether: error: ")
noether_cli_test(NAME list EXIT_CODE 0 ARGS list
                 STDOUT "^scenarios:\n  singular-mass-spring +[^\n]+\n.*  double-pendulum .*\nsteppers:\n  livens-em +[^\n]+\n(  [^\n]+\n)*  sem-vi +symplectic-energy-momentum [^\n]+\n(  [^\n]+\n)*$")
noether_cli_test(NAME help EXIT_CODE 0 ARGS --help
                 STDOUT "Usage: noether.*Exit codes .docs/cli.md.:\n  0 +the run completed\n  1 +the run failed: .*\n  2 +a usage error, found before anything was written\n  129, 130, 143  interrupted by SIGHUP, SIGINT or SIGTERM")
noether_cli_test(NAME run_help EXIT_CODE 0 ARGS run --help STDOUT "--max-steps.*Exit codes .docs/cli.md.:\n  0 ")
noether_cli_test(NAME run_ok EXIT_CODE 0 WRITES_OUTPUT ARGS run singular-mass-spring --t 1 --threads 1
                 STDOUT "^scenario +singular-mass-spring\n.*status +completed\nsteps +10\nt_reached +1\n.*ok +true\n$"
                 SUMMARY "^{\n  \"status\": \"completed\",\n  \"timeseries\": \"timeseries.csv\",\n  \"motion\": \"motion.pvd\",\n  \"final_state\": \"final_state.json\",\n  \"scenario\": \"singular-mass-spring\",")
noether_cli_test(NAME no_command EXIT_CODE 2 ARGS "" STDERR "${usage}no command given; commands: list, run, resume, export, plot")
noether_cli_test(NAME unknown_command EXIT_CODE 2 ARGS frobnicate
                 STDERR "${usage}unknown command 'frobnicate'; commands: list, run, resume, export, plot")
noether_cli_test(NAME unknown_option EXIT_CODE 2 ARGS run double-pendulum --bogus STDERR "${usage}.*--bogus")
noether_cli_test(NAME missing_scenario EXIT_CODE 2 ARGS run STDERR "${usage}scenario is required")
noether_cli_test(NAME unknown_scenario EXIT_CODE 2 ARGS run nope
                 STDERR "${usage}unknown scenario 'nope'; known scenarios: singular-mass-spring, ")
noether_cli_test(NAME unknown_stepper EXIT_CODE 2 ARGS run double-pendulum --stepper nope
                 STDERR "${usage}unknown stepper 'nope'; known steppers: livens-em")
noether_cli_test(NAME unknown_solver EXIT_CODE 2 ARGS run double-pendulum --solver nope
                 STDERR "${usage}unknown solver 'nope'; accepted: auto, klu, umfpack, eigen, schur, mumps\n$")
# --ordering (docs/cli.md): nested dissection asked for is used and reported in summary.json with
# its fill; an ordering the solver does not take is a usage error; a run that chooses nothing
# reports its automatic choice (klu's trial takes nd on grid2d's closed loops).
noether_cli_test(NAME ordering_nd EXIT_CODE 0 WRITES_OUTPUT ARGS run grid2d --ordering nd --t 0.02 --threads 1
                 STDOUT "\nordering +nd\n.*\nfactorization_ordering +nd\nfactor_entries +[1-9][0-9]*\n"
                 SUMMARY "\n  \"ordering\": \"nd\",\n.*\n  \"factorization\": {\n    \"solver\": \"klu\",\n    \"ordering\": \"nd\",\n    \"reason\": \"klu: [^\"]+; --ordering nd: [^\"]+ flops\",\n    \"factor_entries\": [1-9][0-9]*,\n    \"flops\": [1-9]")
noether_cli_test(NAME ordering_auto_grid EXIT_CODE 0 WRITES_OUTPUT ARGS run grid2d --t 0.02 --threads 1
                 SUMMARY "\n  \"ordering\": \"auto\",\n.*\n  \"factorization\": {\n    \"solver\": \"klu\",\n    \"ordering\": \"nd\",\n    \"reason\": \"klu: [^\"]+; fewest flops in a trial factorization of the first matrix: colamd [^\"]+ nd ")
noether_cli_test(NAME ordering_eigen EXIT_CODE 2 ARGS run grid2d --solver eigen --ordering nd
                 STDERR "${usage}--ordering: the ordering nd applies to klu, umfpack, schur and auto; eigen orders by its own rules: leave the ordering at auto\n$")
noether_cli_test(NAME unknown_ordering EXIT_CODE 2 ARGS run grid2d --ordering metis
                 STDERR "${usage}--ordering expects auto, nd, amd or colamd, got 'metis'\n$")
noether_cli_test(NAME cholmod_solver EXIT_CODE 2 ARGS run double-pendulum --solver cholmod
                 STDERR "${usage}--solver cholmod: CHOLMOD needs a symmetric positive definite matrix, .*unsymmetric and indefinite .*projection of initial values.*; accepted: klu, umfpack, eigen, mumps")
noether_cli_test(NAME unknown_set_key EXIT_CODE 2 ARGS run double-pendulum --set nope=1
                 STDERR "${usage}scenario 'double-pendulum' has no parameter 'nope'; it accepts: m1, m2, ")
noether_cli_test(NAME evi_quadrature_points EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run double-pendulum --stepper evi --set S=3 --threads 1
                 STDOUT "^scenario +double-pendulum\nstepper +evi\nS +3\nomega +0\n.*ok +true\n$")
noether_cli_test(NAME evi_parameter_for_another_stepper EXIT_CODE 2 ARGS run double-pendulum --set S=3
                 STDERR "${usage}--set S=3: S is a parameter of stepper evi, not of stepper livens-em or scenario double-pendulum; add --stepper evi")
noether_cli_test(NAME evi_bad_quadrature_points EXIT_CODE 2 ARGS run double-pendulum --stepper evi --set S=2.5
                 STDERR "${usage}evi: S .quadrature points per step. must be a whole number from 1 to 64, got 2.5")
# Found by the first step, once the outputs have begun: a refusal, with both files.
noether_cli_test(NAME evi_frequency_too_high EXIT_CODE 1 WRITES_OUTPUT ARGS run double-pendulum --stepper evi --set omega=400
                 SUMMARY "^{\n  \"status\": \"failed\",.*\"failure\": {\n    \"cause\": \"refused\",\n    \"step\": 1,"
                 STDERR "${usage}evi: the interpolation needs .omega h. < pi .sin.omega h. != 0., got omega = 400 and h = 0.01; take .h. < pi/omega = 0.00785398 or a smaller omega")
noether_cli_test(NAME constrained_particles_avf EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run constrained-particles --set derivative=avf --t 0.5 --threads 1
                 STDOUT "\nlinear_momentum_drift +[0-9.e-]+\nangular_momentum_drift +[0-9.e-]+\n.*ok +true\n$")
noether_cli_test(NAME set_without_equals EXIT_CODE 2 ARGS run double-pendulum --set m1
                 STDERR "${usage}--set expects key=value .*got 'm1'")
noether_cli_test(NAME set_non_numeric EXIT_CODE 2 ARGS run double-pendulum --set m1=abc
                 STDERR "${usage}--set m1 expects a number .*got 'abc'")
noether_cli_test(NAME h_non_numeric EXIT_CODE 2 ARGS run double-pendulum --h x
                 STDERR "${usage}--h expects a number .*got 'x'")
noether_cli_test(NAME h_zero EXIT_CODE 2 ARGS run double-pendulum --h 0
                 STDERR "${usage}time step h must be > 0, got 0")
noether_cli_test(NAME h_negative EXIT_CODE 2 ARGS run double-pendulum --h -0.5
                 STDERR "${usage}time step h must be > 0, got -0.5")
noether_cli_test(NAME h_by_set EXIT_CODE 2 ARGS run double-pendulum --set h=-0.5
                 STDERR "${usage}--set h=-0.5: h is a run setting, not a scenario parameter; use --h -0.5")
noether_cli_test(NAME t_end_by_set EXIT_CODE 2 ARGS run double-pendulum --set t_end=2
                 STDERR "${usage}--set t_end=2: t_end is a run setting, not a scenario parameter; use --t 2")
noether_cli_test(NAME newton_tol_by_set EXIT_CODE 2 ARGS run double-pendulum --set newton_tol=1e-8
                 STDERR "${usage}--set newton_tol=1e-8: newton_tol is a run setting, .*; use --newton-tol 1e-8")
# Run length: a whole number of steps, at most --max-steps.
noether_cli_test(NAME too_many_steps EXIT_CODE 2 ARGS run double-pendulum --h 1e-9 --t 2
                 STDERR "${usage}the run would take t_end / h = 2e\\+09 steps .t_end = 2, h = 1e-09., more than the limit of 10000000 .--max-steps.: choose h >= 2e-07, or raise --max-steps if so many steps are meant\n$")
noether_cli_test(NAME h_subnormal EXIT_CODE 2 ARGS run double-pendulum --h 1e-320
                 STDERR "${usage}the run would take t_end / h = inf steps .t_end = 1, h = 1e-320., more than the limit of 10000000 .--max-steps.: choose h >= 1e-07,")
noether_cli_test(NAME t_end_between_steps EXIT_CODE 2 ARGS run double-pendulum --h 1 --t 0.6
                 STDERR "${usage}the end time is not a whole number of steps: t_end / h = 0.6 .t_end = 0.6, h = 1.; choose t_end = 0 or 1 .0 or 1 steps., or an h that divides t_end\n$")
noether_cli_test(NAME t_end_below_one_step EXIT_CODE 2 ARGS run double-pendulum --h 1 --t 0.4
                 STDERR "${usage}the end time is not a whole number of steps: t_end / h = 0.4 .t_end = 0.4, h = 1.; choose t_end = 0 or 1 ")
noether_cli_test(NAME max_steps_refuses EXIT_CODE 2 ARGS run double-pendulum --h 0.001 --t 0.05 --max-steps 49
                 STDERR "${usage}the run would take t_end / h = 50 steps .t_end = 0.05, h = 0.001., more than the limit of 49 ")
noether_cli_test(NAME max_steps_raised EXIT_CODE 0 ARGS run double-pendulum --h 0.001 --t 0.05 --max-steps 50 --threads 1
                 STDOUT "\nstatus +completed\nsteps +50\nt_reached +0.05")
noether_cli_test(NAME max_steps_zero EXIT_CODE 2 ARGS run double-pendulum --max-steps 0
                 STDERR "${usage}--max-steps expects a whole number >= 1, got '0'")
noether_cli_test(NAME t_negative EXIT_CODE 2 ARGS run double-pendulum --t -1
                 STDERR "${usage}end time t_end must be >= 0, got -1")
noether_cli_test(NAME threads_zero EXIT_CODE 2 ARGS run double-pendulum --threads 0
                 STDERR "${usage}--threads expects a whole number >= 1, got '0'")
noether_cli_test(NAME threads_non_numeric EXIT_CODE 2 ARGS run double-pendulum --threads two
                 STDERR "${usage}--threads expects a whole number >= 1, got 'two'")
noether_cli_test(NAME every_zero EXIT_CODE 2 ARGS run double-pendulum --every 0
                 STDERR "${usage}--every expects a whole number >= 1, got '0'")
noether_cli_test(NAME vtk_bad_value EXIT_CODE 2 ARGS run double-pendulum --vtk maybe
                 STDERR "${usage}--vtk expects on or off, got 'maybe'\n$")
noether_cli_test(NAME newton_tol_zero EXIT_CODE 2 ARGS run double-pendulum --newton-tol 0
                 STDERR "${usage}Newton tolerance .--newton-tol. must be in .0, 0.001. .e.g. 1e-10., got 0\n$")
noether_cli_test(NAME newton_tol_huge EXIT_CODE 2 ARGS run double-pendulum --newton-tol 1e300
                 STDERR "${usage}Newton tolerance .--newton-tol. must be in .0, 0.001. .e.g. 1e-10., got 1e\\+300\n$")
noether_cli_test(NAME newton_max_iterations_zero EXIT_CODE 2 ARGS run double-pendulum --newton-max-iterations 0
                 STDERR "${usage}--newton-max-iterations expects a whole number from 1 to 1000, got '0'")
noether_cli_test(NAME newton_unknown_method EXIT_CODE 2 ARGS run double-pendulum --newton quasi
                 STDERR "${usage}--newton expects full or modified, got 'quasi'")
noether_cli_test(NAME newton_refresh_without_modified EXIT_CODE 2 ARGS run double-pendulum --newton-refresh 0.5
                 STDERR "${usage}--newton-refresh 0.5 acts on modified Newton only; add --newton modified")
noether_cli_test(NAME newton_refresh_out_of_range EXIT_CODE 2
                 ARGS run double-pendulum --newton modified --newton-refresh 1.5
                 STDERR "${usage}modified Newton's refresh contraction .--newton-refresh. must be strictly between 0 and 1 .e.g. 0.25., got 1.5")
noether_cli_test(NAME newton_refresh_subnormal EXIT_CODE 2
                 ARGS run double-pendulum --newton modified --newton-refresh 1e-320
                 STDERR "${usage}modified Newton's refresh contraction .--newton-refresh. must be a normal number, at least 2.2250738585072014e-308, got 1e-320 ")
noether_cli_test(NAME newton_modified EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run singular-mass-spring --t 1 --threads 1 --newton modified --newton-refresh 0.5
                 STDOUT "\nnewton_method +modified\nnewton_tolerance +1e-13\nnewton_max_iterations +30\nnewton_refresh_contraction +0.5\n.*\nnewton_factorizations_total +[1-9][0-9]*\n.*\nok +true\n$")
noether_cli_test(NAME newton_failure EXIT_CODE 1 WRITES_OUTPUT
                 ARGS run double-pendulum --newton-max-iterations 1 --refine-depth 0
                 STDERR "${usage}Newton failed at step 1 " STDOUT "ok +false\nerror +Newton failed")
noether_cli_test(NAME refine_depth_out_of_range EXIT_CODE 2 ARGS run double-pendulum --refine-depth 31
                 STDERR "${usage}--refine-depth expects a whole number from 0 to 30, got '31'")
noether_cli_test(NAME refined_run EXIT_CODE 0 WRITES_OUTPUT
                 OUT_FILES "final_state.json|summary.json|timeseries.csv"
                 ARGS run double-fourbar --stepper ggl-vi --h 0.002 --threads 1 --vtk off
                 STDOUT "\nrefined_steps +1\nsmallest_substep +0.001\nfirst_refined_at_t +9.002\nok +true\n$")
noether_cli_test(NAME sem_vi_double_well EXIT_CODE 0 WRITES_OUTPUT ARGS run double-well --stepper sem-vi --threads 1
                 STDOUT "\nsteps +[0-9]+\nt_reached +20\.[0-9]+\nstep_size_min +0\.0[0-9]+\nstep_size_max +0\.05\ncondition_estimate_max +[0-9.e+]+\n.*ok +true\n$")
noether_cli_test(NAME sem_vi_amplified_oscillator EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run damped-oscillator --stepper sem-vi --set zeta=-0.05 --threads 1
                 STDOUT "\nt_reached +20\.[0-9]+\nstep_size_min +0\.0[0-9]+\nstep_size_max +0\.05\n.*ok +true\n$")
noether_cli_test(NAME sem_vi_over_the_barrier EXIT_CODE 1 WRITES_OUTPUT
                 ARGS run double-well --stepper sem-vi --set q0=0 --set v0=1.5 --threads 1
                 STDERR "${usage}Newton failed at step [0-9]+ .from t = 0\\.2[0-9]+, first guess h = [0-9.]+., refined 8 times")
noether_cli_test(NAME redundant_bad_value EXIT_CODE 2 ARGS run bricard --redundant keep
                 STDERR "${usage}--redundant expects drop or refuse, got 'keep'")
noether_cli_test(NAME bricard_drops EXIT_CODE 0 WRITES_OUTPUT ARGS run bricard --t 0.1 --threads 1
                 STDOUT "\ndropped_equations +1\ndropped +constraint 'J[0-9]' row [0-9] depends on constraint '.*\nok +true\n$")
noether_cli_test(NAME bricard_refused EXIT_CODE 1 WRITES_OUTPUT OUT_FILES "motion.pvd|summary.json|timeseries.csv|vtk" ARGS run bricard --redundant refuse --threads 1
                 STDERR "${usage}1 constraint equation depends on the others along the motion: constraint 'J[0-9]' row [0-9] depends on .*[.] Run with --redundant drop .the default.")
noether_cli_test(NAME newton_iteration_limit EXIT_CODE 1 WRITES_OUTPUT
                 ARGS run double-pendulum --newton-max-iterations 1 --refine-depth 0
                 STDERR "${usage}Newton failed at step 1 " STDOUT "newton_max_iterations +1\n.*ok +false\n")
# A non-finite initial state is the stepper's refusal, with both files.
noether_cli_test(NAME nonfinite_initial_state EXIT_CODE 1 WRITES_OUTPUT ARGS run top --set density=1e140 --set omega_p=1e200 --threads 1
                 SUMMARY "\"status\": \"failed\",.*\"failure\": {\n    \"cause\": \"refused\","
                 STDERR "${usage}livens-em: state.p is not finite at top.phi.x .inf.\n$")
# The memory guard takes the tightest limit: here ulimit -v of 3 GB. Not in
# a sanitizer tree: AddressSanitizer reserves terabytes of address space for its shadow memory at
# start, which ulimit -v forbids (the program dies before main). The guard's own test,
# test_memory_budget.cpp, lowers the limit inside the process and runs there too.
if(NOT NOETHER_SANITIZE)
  noether_cli_test(NAME memory_guard_address_space EXIT_CODE 2 PREFIX "ulimit -v 3000000" ARGS run chain2d --set n=600000
                   STDERR "${usage}scenario 'chain2d' with n = 600000 needs about 8.4 GB .14 KB per bar., and [0-9.]+ GB are available: choose a smaller size .the limit is the address-space limit RLIMIT_AS .ulimit -v..\n$")
endif()
# A file-size limit (ulimit -f, 512-byte blocks: 150 KB) makes the kernel fail the time series'
# third flush of 64 KiB part-way with EFBIG, the same path as a full disk's ENOSPC: the two whole
# flushes stay, renamed timeseries.csv, and summary.json says failed with the reason.
noether_cli_test(NAME write_fails_in_time_series EXIT_CODE 1 WRITES_OUTPUT PREFIX "trap '' XFSZ && ulimit -f 300"
                 ARGS run double-pendulum --t 20 --threads 1
                 SUMMARY "\"status\": \"failed\",.*\"error\": \"writing '[^']*timeseries.csv.partial' failed: File too large\",\n  \"failure\": {\n    \"cause\": \"output\","
                 STDERR "${usage}writing '[^']*timeseries.csv.partial' failed: File too large\n$")
# ... and when not even the running summary can be written, nothing is (1 block of 512 bytes).
noether_cli_test(NAME write_fails_at_start EXIT_CODE 1 WRITES_OUTPUT OUT_FILES none PREFIX "trap '' XFSZ && ulimit -f 1"
                 ARGS run double-pendulum --threads 1
                 STDERR "${usage}writing '[^']*summary.json' failed: File too large\n$")
# Signals, a real full disk, symlinks in --out: scripts that prepare the directory or run noether
# several times (their headers say how).
foreach(script interrupt disk_full symlinks resume)
  add_test(NAME cli.${script} COMMAND bash ${PROJECT_SOURCE_DIR}/tests/apps/check_${script}.sh
           $<TARGET_FILE:noether_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli_test_output/${script})
endforeach()
set_tests_properties(cli.disk_full PROPERTIES SKIP_RETURN_CODE 77)
# --solver mumps in one process: agreement with klu, the same bits twice, a singular matrix's
# message (docs/distributed.md); a build without PETSc refuses the name with how to get it.
if(NOETHER_PETSC_BUILT)
  add_test(NAME cli.mumps COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/apps/check_mumps.py
           $<TARGET_FILE:noether_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli_test_output/mumps)
else()
  noether_cli_test(NAME mumps_not_built EXIT_CODE 2 ARGS run double-pendulum --solver mumps
                   STDERR "${usage}--solver mumps: mumps is a PETSc back-end, and this Noether was built without PETSc: install the Debian package petsc-dev .*-DNOETHER_WITH_PETSC=ON")
endif()
# noether plot: figures of real runs parsed (SVG as XML, PNG header), and its errors.
add_test(NAME cli.plot COMMAND bash ${PROJECT_SOURCE_DIR}/tests/apps/check_plot.sh $<TARGET_FILE:noether_cli>
         ${CMAKE_CURRENT_BINARY_DIR}/cli_test_output/plot ${PROJECT_SOURCE_DIR})
noether_cli_test(NAME stepper_refusal EXIT_CODE 1 WRITES_OUTPUT OUT_FILES "motion.pvd|summary.json|timeseries.csv|vtk" ARGS run rod-chain3d --stepper ggl-vi
                 STDERR "${usage}ggl-vi needs a constant invertible mass matrix, but inertia 'rod1.inertia' is singular .rank 6 of 12.; use livens-em")

# Scene files (docs/scenes.md). `noether export S > s.json && noether run s.json` runs to the bits
# of `noether run S`, for every scenario at its defaults.
set(scene_bits -DPROGRAM=$<TARGET_FILE:noether_cli> -P ${PROJECT_SOURCE_DIR}/tests/apps/check_scene_export.cmake)
foreach(scenario singular-mass-spring spring-pendulum double-pendulum constrained-particles double-well
                 damped-oscillator top double-fourbar rod-chain3d chain2d chain3d nfourbar grid2d bricard
                 slider-crank)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/scene_bits/${scenario})
  add_test(NAME cli.scene_bits.export_${scenario}
           COMMAND ${CMAKE_COMMAND} -DEXPORT=${scenario} -DRUN_A=${dir}/s.json -DRUN_B=${scenario} -DDIR=${dir} ${scene_bits})
endforeach()
# The slider-crank's motor (--set drive=torque): an actuator in the scene.
set(dir ${CMAKE_CURRENT_BINARY_DIR}/scene_bits/slider-crank_torque)
add_test(NAME cli.scene_bits.export_slider-crank_torque
         COMMAND ${CMAKE_COMMAND} -DEXPORT=slider-crank|--set|drive=torque -DRUN_A=${dir}/s.json
                 -DRUN_B=slider-crank|--set|drive=torque -DDIR=${dir} ${scene_bits})
set(dir ${CMAKE_CURRENT_BINARY_DIR}/scene_bits/example_double_fourbar)
add_test(NAME cli.scene_bits.example_double_fourbar_is_the_damped_scenario
         COMMAND ${CMAKE_COMMAND} -DRUN_A=${PROJECT_SOURCE_DIR}/examples/scenes/double_fourbar.json|--t|2
                 -DRUN_B=double-fourbar|--set|damping=0.5|--t|2 -DDIR=${dir} ${scene_bits})
foreach(example pendulum double_fourbar spatial_double_pendulum)
  noether_cli_test(NAME scene_example_${example} EXIT_CODE 0 WRITES_OUTPUT
                   ARGS run ${PROJECT_SOURCE_DIR}/examples/scenes/${example}.json --t 0.5 --threads 1
                   STDOUT "\nok +true\n$")
endforeach()
noether_cli_test(NAME scene_unknown_body EXIT_CODE 2 ARGS run ${PROJECT_SOURCE_DIR}/tests/apps/scenes/unknown_body.json
                 STDERR "${usage}.*unknown_body.json: /joints/5/body_b: no body named 'B7'; bodies are B1, B2, B3, B4, B5\n$")
noether_cli_test(NAME scene_projected EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run ${PROJECT_SOURCE_DIR}/tests/apps/scenes/double_fourbar_off_by_1mm.json --t 0.1 --threads 1
                 STDERR "^noether: warning: the initial positions violated constraint 'P4' row 0 by 0.001 .*; projected onto the constraints, max .dq. = 0.000885714 at B4.phi.x; .*\n$"
                 STDOUT "\ninitial_position_correction +0.000885714[0-9]*\n.*ok +true\n$")
# A scene's output.vtk false is --vtk off; --vtk on overrides it.
noether_cli_test(NAME scene_without_vtk EXIT_CODE 0 WRITES_OUTPUT OUT_FILES "final_state.json|summary.json|timeseries.csv"
                 ARGS run ${PROJECT_SOURCE_DIR}/tests/apps/scenes/pendulum_without_vtk.json --t 0.1 --threads 1)
noether_cli_test(NAME scene_without_vtk_overridden EXIT_CODE 0 WRITES_OUTPUT
                 ARGS run ${PROJECT_SOURCE_DIR}/tests/apps/scenes/pendulum_without_vtk.json --t 0.1 --threads 1 --vtk on)
noether_cli_test(NAME scene_set_is_refused EXIT_CODE 2
                 ARGS run ${PROJECT_SOURCE_DIR}/examples/scenes/pendulum.json --set m=2
                 STDERR "${usage}--set m=2: a scene file has no parameters to set; edit .*pendulum.json")
noether_cli_test(NAME export_unknown_scenario EXIT_CODE 2 ARGS export nope STDERR "${usage}unknown scenario 'nope'")
# Issue 40: export refuses the options of run it does not take by name (docs/cli.md lists them),
# and a value run would refuse (it wrote --newton-max-iterations 5000 into a scene run refused).
noether_cli_test(NAME export_vtk_refused EXIT_CODE 2 ARGS export double-pendulum --vtk off
                 STDERR "${usage}--vtk 'off': noether export writes a scene, not a run's files; it takes the options of run but --threads, --parts, --out, --vtk and --checkpoint-every .give this one to noether run.\n$")
noether_cli_test(NAME export_newton_iterations_beyond_run EXIT_CODE 2 ARGS export double-pendulum --newton-max-iterations 5000
                 STDERR "${usage}--newton-max-iterations expects a whole number from 1 to 1000, got '5000'\n$")
# Parameters out of their range are refused before anything is built.
foreach(case "spring-pendulum|m=-1|m|> 0|-1" "spring-pendulum|l0=-1|l0|> 0|-1" "double-pendulum|l1=-1|l1|> 0|-1"
             "double-pendulum|m1=0|m1|> 0|0" "double-fourbar|l=-1|l|> 0|-1" "rod-chain3d|l=-1|l|> 0|-1"
             "top|radius=0|radius|> 0|0" "damped-oscillator|zeta=1|zeta|in .-1, 1.|1")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 scenario)
  list(GET fields 1 assignment)
  list(GET fields 2 key)
  list(GET fields 3 range)
  list(GET fields 4 value)
  noether_cli_test(NAME parameter_range_${scenario}_${key} EXIT_CODE 2 ARGS run ${scenario} --set ${assignment}
                   STDERR "${usage}scenario '${scenario}': parameter '${key}' must be ${range}, got ${value}\n$")
endforeach()
# The VTK files read back by VTK's reader (Debian python3-vtk9; skipped, exit 77, without it).
add_test(NAME cli.vtk_output_read_by_vtk
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/apps/check_vtk_output.py $<TARGET_FILE:noether_cli>
                 ${CMAKE_CURRENT_BINARY_DIR}/cli_test_output/vtk_output)
set_tests_properties(cli.vtk_output_read_by_vtk PROPERTIES SKIP_RETURN_CODE 77)
# The JSON Schema validates the examples and every exported scenario (Debian python3-jsonschema).
execute_process(COMMAND /usr/bin/python3 -c "import jsonschema" RESULT_VARIABLE no_jsonschema OUTPUT_QUIET ERROR_QUIET)
if(no_jsonschema EQUAL 0)
  file(GLOB examples ${PROJECT_SOURCE_DIR}/examples/scenes/*.json)
  add_test(NAME scene_schema_validates_examples_and_exports
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/apps/validate_scenes.py
                   ${PROJECT_SOURCE_DIR}/docs/scene.schema.json $<TARGET_FILE:noether_cli> ${CMAKE_CURRENT_BINARY_DIR}/scene_schema
                   ${examples} singular-mass-spring spring-pendulum double-pendulum constrained-particles double-well
                   damped-oscillator top double-fourbar rod-chain3d chain2d chain3d nfourbar grid2d bricard
                 slider-crank)
else()
  message(STATUS "python3-jsonschema not found: the scene schema is checked against the loader's keys only")
endif()
