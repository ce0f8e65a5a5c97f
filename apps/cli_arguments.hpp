#pragma once
/// The `noether run` arguments as typed on the command line, and their conversion to RunOptions.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {

/// Raw option texts; an absent option keeps its default (RunOptions).
struct RunArguments {
  std::string scenario;  ///< a scenario's name, or a scene file (a name ending in .json)
  std::optional<std::string> stepper, h, t_end, max_steps, solver, threads, out, every, vtk, checkpoint_every;
  std::optional<std::string> newton_tol, newton_max_iterations, newton, newton_refresh, refine_depth, redundant;
  std::vector<std::string> assignments;  ///< each "key=value" from one --set
};

/// Converts and checks the texts; throws std::invalid_argument naming the option, the text and
/// what is accepted (a number, a whole number >= 1, key=value, a solver the steppers accept, full
/// or modified; --newton-refresh only with --newton modified; on or off for --vtk). A scene file is loaded (its errors
/// name the file and the JSON path); its output settings are the defaults of --every and --out,
/// and --set reaches only the stepper's parameters.
RunOptions to_run_options(const RunArguments& arguments);

/// The whole of text as a double; throws std::invalid_argument naming `what` otherwise.
double parse_number(const std::string& what, const std::string& text);
/// The whole of text as an integer >= 1, in digits or exponent form (1e6); throws
/// std::invalid_argument naming `what` otherwise (and the largest int when it is beyond).
int parse_positive_count(const std::string& what, const std::string& text);
/// The whole of text as an integer in [low, high], in digits or exponent form; throws
/// std::invalid_argument naming `what` otherwise.
int parse_count_in(const std::string& what, const std::string& text, int low, int high);
/// "key=value" from --set: a number, or the name of a choice of that scenario parameter. The run
/// settings once given as parameters (h, t_end, newton_tol) are refused with their option.
std::pair<std::string, double> parse_assignment(const Scenario& scenario, const std::string& text);
/// "key=value" from --set when the stepper declares key (SchemeParameter): the key and the number;
/// nullopt for a key it does not declare. Throws std::invalid_argument naming both when the
/// scenario has a parameter of that name too, naming the stepper to choose when only another
/// stepper declares the key, or when the value is not a number.
std::optional<std::pair<std::string, double>> parse_scheme_assignment(const StepperInfo& stepper,
                                                                     const Scenario& scenario, const std::string& text);
/// One of the solvers the steppers accept: klu, umfpack, eigen. cholmod is refused with why.
LinearSolverKind parse_solver(const std::string& text);
/// --newton: "full" (false) or "modified" (true).
bool parse_newton_method(const std::string& text);

}  // namespace noether
