#include "cases.hpp"

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/solvers/linear/cholmod_solver.hpp>
#include <noether/solvers/linear/eigen_lu_solver.hpp>
#include <noether/solvers/linear/klu_solver.hpp>
#include <noether/solvers/linear/umfpack_solver.hpp>

namespace noether::bench {

std::string_view to_string(MechanismKind kind) {
  switch (kind) {
    case MechanismKind::chain2d: return "chain2d";
    case MechanismKind::chain3d: return "chain3d";
    case MechanismKind::chain3d_revolute: return "chain3d-revolute";
    case MechanismKind::nfourbar: return "nfourbar";
    case MechanismKind::grid2d: return "grid2d";
  }
  return "unknown";
}

Mechanism make_mechanism(MechanismKind kind, Index size) {
  switch (kind) {
    case MechanismKind::chain2d: return make_chain2d(size);
    case MechanismKind::chain3d: return make_chain3d(size, ChainJoint::spherical);
    case MechanismKind::chain3d_revolute: return make_chain3d(size, ChainJoint::revolute);
    case MechanismKind::nfourbar: return make_bar_lattice(size, 1);
    case MechanismKind::grid2d: return make_bar_lattice(size, size);
  }
  throw std::invalid_argument("unknown mechanism kind");
}

std::string_view size_name(MechanismKind kind) { return kind == MechanismKind::grid2d ? "k" : "n"; }

double estimated_bodies(MechanismKind kind, Index size) {
  const double s = size;
  switch (kind) {
    case MechanismKind::chain2d:
    case MechanismKind::chain3d:
    case MechanismKind::chain3d_revolute: return s;
    case MechanismKind::nfourbar: return bar_lattice_size(s, 1.0);
    case MechanismKind::grid2d: return bar_lattice_size(s, s);
  }
  return s;
}

double estimated_unknowns(MechanismKind kind, Index size) {
  // Per body: coordinates + orthonormality multipliers + joint multipliers (lattices: ~1.5 joints per bar).
  switch (kind) {
    case MechanismKind::chain2d: return 11.0 * estimated_bodies(kind, size);            // 6 + 3 + 2
    case MechanismKind::chain3d: return 21.0 * estimated_bodies(kind, size);            // 12 + 6 + 3
    case MechanismKind::chain3d_revolute: return 23.0 * estimated_bodies(kind, size);   // 12 + 6 + 5
    case MechanismKind::nfourbar:
    case MechanismKind::grid2d: return 12.0 * estimated_bodies(kind, size);             // 6 + 3 + ~3
  }
  return estimated_bodies(kind, size);
}

double estimated_peak_bytes_per_body(MechanismKind kind) {
  switch (kind) {
    case MechanismKind::chain2d:
    case MechanismKind::nfourbar: return kPlanarBarPeakBytes;
    case MechanismKind::chain3d:
    case MechanismKind::chain3d_revolute: return k3dBarPeakBytes;
    case MechanismKind::grid2d: return kLatticeBarPeakBytes;
  }
  return kLatticeBarPeakBytes;
}

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::umfpack: return "umfpack";
    case Backend::umfpack_symmetric: return "umfpack-sym";
    case Backend::umfpack_unsymmetric: return "umfpack-unsym";
    case Backend::umfpack_nd: return "umfpack-nd";
    case Backend::klu: return "klu";
    case Backend::klu_nd: return "klu-nd";
    case Backend::klu_amd: return "klu-amd";
    case Backend::klu_colamd: return "klu-colamd";
    case Backend::cholmod: return "cholmod";
    case Backend::eigen: return "eigen";
  }
  return "unknown";
}

LinearSolverKind kind_of(Backend backend) {
  switch (backend) {
    case Backend::umfpack:
    case Backend::umfpack_symmetric:
    case Backend::umfpack_unsymmetric:
    case Backend::umfpack_nd: return LinearSolverKind::umfpack;
    case Backend::klu:
    case Backend::klu_nd:
    case Backend::klu_amd:
    case Backend::klu_colamd: return LinearSolverKind::klu;
    case Backend::cholmod: return LinearSolverKind::cholmod;
    case Backend::eigen: return LinearSolverKind::eigen;
  }
  return LinearSolverKind::umfpack;
}

std::unique_ptr<LinearSolver> make_backend(Backend backend) {
  switch (backend) {
    case Backend::umfpack: return std::make_unique<UmfpackSolver>(UmfpackStrategy::automatic);
    case Backend::umfpack_symmetric: return std::make_unique<UmfpackSolver>(UmfpackStrategy::symmetric);
    case Backend::umfpack_unsymmetric: return std::make_unique<UmfpackSolver>(UmfpackStrategy::unsymmetric);
    case Backend::umfpack_nd: return std::make_unique<UmfpackSolver>(FillOrdering::nested_dissection);
    case Backend::klu: return std::make_unique<KluSolver>();
    case Backend::klu_nd: return std::make_unique<KluSolver>(FillOrdering::nested_dissection);
    case Backend::klu_amd: return std::make_unique<KluSolver>(FillOrdering::amd);
    case Backend::klu_colamd: return std::make_unique<KluSolver>(FillOrdering::colamd);
    case Backend::cholmod: return std::make_unique<CholmodSolver>();
    case Backend::eigen: return std::make_unique<EigenLuSolver>();
  }
  throw std::invalid_argument("unknown backend");
}

StepperOptions instrumented_options(Backend backend, const NewtonOptions& newton, SolverRecord& record) {
  StepperOptions options;
  options.solver = kind_of(backend);
  options.newton = newton;
  options.max_refinement_depth = 0;  // a step that fails is the benchmark's failure, not a refined step to time
  options.newton.linear_solver_factory = [backend, &record]() -> std::unique_ptr<LinearSolver> {
    return std::make_unique<InstrumentedSolver>(make_backend(backend), record);
  };
  return options;
}

}  // namespace noether::bench
