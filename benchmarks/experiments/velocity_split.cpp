/// noether_velocity_split: em-ggl's Newton matrix solved with its velocity projection split off
/// (docs/notebook.md, "em-ggl against livens-em": the block Gauss-Seidel trial), against KLU on
/// the whole matrix; a measurement program, run under callgrind for the instruction counts.
///
///   noether_velocity_split [--case SCENARIO:N] [--stepper NAME] [--steps N] [--solve full|split]
///                          [--sweeps K] [--sweep-on every|fresh|chord]
///
/// N steps of h = 1/N from the release to t = 1, on one thread. --solve full: KLU (KluSolver) on
/// the Newton matrix A, through the same wrapper as the split (it copies the values once per
/// factorization). --solve split (em-ggl only): A = P + A12, A12 the entries of the R_p rows
/// (field dq) in the u1 and gamma columns, P the rest, block lower triangular on (dq, nu | u1,
/// gamma); KLU factors P (its block triangular form finds the two blocks) and each solve is
///
///   x = P^-1 b,   then K times   x <- P^-1 (b - A12 x)
///
/// on every solve, on the first solve after each factorization only (fresh), or on the others
/// only (chord). Prints the Newton counts, P's and A's entries, P's largest diagonal block, KLU's
/// ordering trial and q(1) at its largest entry. Exit status 0, 1 on an error (among them a
/// layout that no longer splits into two blocks), CLI11's nonzero code on a usage error.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/unknown_ordering.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "measurement_tables.hpp"

namespace {

using namespace noether;

/// em-ggl's fields in the order of its unknown vector (EmGglScheme::Field, steppers/em_ggl.cpp).
enum class EmGglField { u, nu, gamma, dq };

/// The field of each unknown in the body-wise order the linear solver sees (engine/unknown_ordering.hpp).
std::vector<EmGglField> em_ggl_fields(const System& system) {
  const Index d = system.num_coordinates(), m = system.num_multipliers();
  const std::vector<FieldKind> kinds{FieldKind::coordinates, FieldKind::multipliers, FieldKind::multipliers,
                                     FieldKind::coordinates};
  const std::vector<Index> position = body_wise_positions(system, kinds);
  std::vector<EmGglField> field(position.size());
  for (Index i = 0; i < static_cast<Index>(position.size()); ++i)
    field[position[i]] = i < d           ? EmGglField::u
                         : i < d + m     ? EmGglField::nu
                         : i < d + 2 * m ? EmGglField::gamma
                                         : EmGglField::dq;
  return field;
}

enum class SweepOn { every, fresh, chord };

/// The splitting solver of the file comment; with no fields given it drops nothing, and with no
/// sweeps either it is KLU on A.
class VelocitySplitSolver final : public LinearSolver {
 public:
  VelocitySplitSolver(std::vector<EmGglField> field, int sweeps, SweepOn sweep_on)
      : field_(std::move(field)), sweeps_(sweeps), sweep_on_(sweep_on) {}
  LinearSolverKind kind() const override { return LinearSolverKind::klu; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& a) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  /// P^-T b, without sweeps: Newton's condition estimates see P (A itself with --solve full).
  void solve_transposed(std::span<const double> b, std::span<double> x) override { klu_.solve_transposed(b, x); }
  void forget_factorization() override { klu_.forget_factorization(); }

  const KluSolver& klu() const { return klu_; }
  Index unknowns() const { return p_.n; }
  Index kept_entries() const { return p_.nnz(); }
  Index matrix_entries() const { return p_.nnz() + static_cast<Index>(dropped_.size()); }

 private:
  bool coupling(Index row, Index col) const {
    return !field_.empty() && field_[row] == EmGglField::dq &&
           (field_[col] == EmGglField::u || field_[col] == EmGglField::gamma);
  }

  std::vector<EmGglField> field_;
  int sweeps_;
  SweepOn sweep_on_;
  bool fresh_ = false;  ///< no solve since the last factorization
  CscPattern p_;
  std::vector<Index> kept_;                             ///< positions in A's values of P's entries
  std::vector<Index> dropped_, dropped_row_, dropped_col_;  ///< A12's entries
  std::vector<double> p_values_, dropped_values_, rhs_;
  KluSolver klu_;
};

void VelocitySplitSolver::analyze_pattern(const CscPattern& a) {
  p_ = CscPattern{};
  p_.n = a.n;
  p_.column_starts.assign(1, 0);
  kept_.clear();
  dropped_.clear();
  dropped_row_.clear();
  dropped_col_.clear();
  for (Index j = 0; j < a.n; ++j) {
    for (Index k = a.column_starts[j]; k < a.column_starts[j + 1]; ++k) {
      const Index i = a.row_indices[k];
      if (coupling(i, j)) {
        dropped_.push_back(k);
        dropped_row_.push_back(i);
        dropped_col_.push_back(j);
      } else {
        kept_.push_back(k);
        p_.row_indices.push_back(i);
      }
    }
    p_.column_starts.push_back(static_cast<Index>(p_.row_indices.size()));
  }
  klu_.analyze_pattern(p_);
}

FactorizationStatus VelocitySplitSolver::factorize(std::span<const double> values) {
  p_values_.resize(kept_.size());
  for (std::size_t k = 0; k < kept_.size(); ++k) p_values_[k] = values[kept_[k]];
  dropped_values_.resize(dropped_.size());
  for (std::size_t e = 0; e < dropped_.size(); ++e) dropped_values_[e] = values[dropped_[e]];
  fresh_ = true;
  return klu_.factorize(p_values_);
}

void VelocitySplitSolver::solve(std::span<const double> b, std::span<double> x) {
  klu_.solve(b, x);
  const bool after_factorization = std::exchange(fresh_, false);
  if ((sweep_on_ == SweepOn::fresh && !after_factorization) || (sweep_on_ == SweepOn::chord && after_factorization))
    return;
  rhs_.resize(b.size());
  for (int s = 0; s < sweeps_; ++s) {
    std::copy(b.begin(), b.end(), rhs_.begin());
    for (std::size_t e = 0; e < dropped_.size(); ++e) rhs_[dropped_row_[e]] -= dropped_values_[e] * x[dropped_col_[e]];
    klu_.solve(rhs_, x);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string case_text = "chain2d:100", stepper_name = "em-ggl", solve = "full", sweep_on_text = "every";
  long steps = 250;
  int sweeps = 1;
  CLI::App app{"em-ggl's Newton matrix with its velocity projection split off, against KLU on the whole matrix"};
  app.add_option("--case", case_text, "SCENARIO:N (a scenario with the parameter n)")->capture_default_str();
  app.add_option("--stepper", stepper_name, "a registered stepper (--solve split: em-ggl)")->capture_default_str();
  app.add_option("--steps", steps, "fixed steps over t = 1")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--solve", solve, "full or split")->check(CLI::IsMember({"full", "split"}))->capture_default_str();
  app.add_option("--sweeps", sweeps, "sweeps per solve (split)")->check(CLI::Range(0, 10))->capture_default_str();
  app.add_option("--sweep-on", sweep_on_text, "every, fresh or chord (split)")
      ->check(CLI::IsMember({"every", "fresh", "chord"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  try {
    if (solve == "split" && stepper_name != "em-ggl")
      throw std::invalid_argument("--solve split needs --stepper em-ggl, got '" + stepper_name + "'");
    const auto [name, n] = measurement::parse_name_and_number("--case", case_text);
    const Scenario& scenario = find_scenario(name);
    const Model model = scenario.build(resolve_parameters(scenario, {{"n", n}}));
    const SweepOn sweep_on = sweep_on_text == "every" ? SweepOn::every
                             : sweep_on_text == "fresh" ? SweepOn::fresh
                                                        : SweepOn::chord;
    VelocitySplitSolver* solver = nullptr;
    StepperOptions options;
    options.newton.linear_solver_factory = [&]() -> std::unique_ptr<LinearSolver> {
      auto made = solve == "split"
                      ? std::make_unique<VelocitySplitSolver>(em_ggl_fields(*model.system), sweeps, sweep_on)
                      : std::make_unique<VelocitySplitSolver>(std::vector<EmGglField>{}, 0, sweep_on);
      solver = made.get();
      return made;
    };
    const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*model.system, options);
    State state = model.initial;
    stepper->initialize(state);
    long iterations = 0, factorizations = 0;
    for (long k = 0; k < steps; ++k) {
      const StepReport report = stepper->step(state, 1.0 / static_cast<double>(steps));
      iterations += report.iterations;
      factorizations += report.factorizations;
    }
    const KluSolver::OrderingRecord& ordering = solver->klu().ordering();
    if (solve == "split" && 2 * ordering.largest_block != solver->unknowns())
      throw std::runtime_error("P's largest diagonal block has " + std::to_string(ordering.largest_block) + " of " +
                               std::to_string(solver->unknowns()) + " unknowns, not half: em_ggl_fields no longer matches "
                               "em-ggl's unknowns (steppers/em_ggl.cpp)");
    Index largest = 0;
    state.q.cwiseAbs().maxCoeff(&largest);
    std::cout << case_text << ", " << stepper_name << ", " << steps << " steps, solve " << solve;
    if (solve == "split") std::cout << " (" << sweeps << " sweeps on " << sweep_on_text << " solve)";
    std::cout << ": " << iterations << " iterations, " << factorizations << " factorizations; A " << solver->matrix_entries()
              << " entries, P " << solver->kept_entries() << ", L + U " << solver->klu().factor_entries()
              << ", largest block " << ordering.largest_block << " of " << solver->unknowns() << " (" << ordering.reason
              << "); q(1) at " << model.system->coordinate_label(largest) << " = "
              << measurement::scientific(state.q(largest), 15) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "noether_velocity_split: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
