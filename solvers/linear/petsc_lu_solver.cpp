/// The PETSc back-end (petsc_lu_solver.hpp): a PETSc matrix laid out once from the pattern's
/// entries, factored by MatGetFactor's MUMPS; docs/distributed.md gives the design.
#include <noether/solvers/linear/petsc_lu_solver.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <petscmat.h>

#include <noether/engine/format.hpp>
#include <noether/engine/library_leaks.hpp>
#include <noether/solvers/linear/nested_dissection.hpp>

namespace noether {
namespace {

/// Every PETSc call of the back-ends holds it: PETSc's global state (its error handler stack, its
/// logging, MPI's singleton) is not thread-safe.
std::mutex& petsc_lock() {
  static std::mutex lock;
  return lock;
}

/// Whether this code called PetscInitialize (so it calls PetscFinalize); a program that started
/// PETSc itself ends it itself.
bool started_petsc = false;

void finalize_petsc() {
  const std::lock_guard<std::mutex> hold(petsc_lock());
  [[maybe_unused]] const LibraryLeaksUnchecked unchecked;
  PetscBool finalized = PETSC_FALSE;
  if (PetscFinalized(&finalized) == 0 && !finalized) PetscFinalize();
}

/// Catches the message of the first PETSc error raised while it lives (PetscPushErrorHandler), so
/// that a failed call becomes a LinearSolverError with PETSc's words and PETSc prints nothing.
class ErrorCapture {
 public:
  explicit ErrorCapture(std::string backend) : backend_(std::move(backend)) {
    PetscPushErrorHandler(&ErrorCapture::handle, this);
  }
  ~ErrorCapture() { PetscPopErrorHandler(); }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

  /// Throws LinearSolverError "<backend>: <what> failed: <PETSc's message>" unless code is 0.
  void check(PetscErrorCode code, const char* what) const {
    if (code == 0) return;
    std::string message = message_;
    if (message.empty()) {
      const char* text = nullptr;
      PetscErrorMessage(code, &text, nullptr);
      message = text ? text : "PETSc error " + std::to_string(code);
    }
    throw LinearSolverError(backend_ + ": " + what + " failed: " + message);
  }

 private:
  static PetscErrorCode handle(MPI_Comm, int, const char* function, const char*, PetscErrorCode code,
                               PetscErrorType type, const char* message, void* context) {
    auto& self = *static_cast<ErrorCapture*>(context);
    if (type == PETSC_ERROR_INITIAL && self.message_.empty())
      self.message_ = std::string(message ? message : "") + " (in " + (function ? function : "PETSc") + ")";
    return code;
  }

  std::string backend_;
  std::string message_;
};

/// A PETSc option set before PETSc starts (PETSC_OPTIONS, read as PETSc starts, may add to them or
/// change them); `alone`: only in a process that is not part of a job of several (MPI's world of
/// one, or MPI not started).
struct PresetOption {
  const char* name;
  const char* value;
  bool alone = false;
};

/// No option files (-skip_petscrc) and no signal handlers (-no_signal_handler: the program's own
/// handle SIGHUP, SIGINT and SIGTERM, apps/interrupt_signals.hpp); and MUMPS's analysis of the
/// steppers' saddle-point matrices, whose multiplier rows have a zero diagonal: ICNTL(6) = 5, a
/// maximum weighted matching that permutes large entries onto the diagonal (with its scaling)
/// before the ordering, so that the pivots the analysis plans are there and few are delayed
/// (without it grid2d k = 60's first factorizations delayed 33 000 pivots and ran out of their
/// workspace, INFOG(1) = -9, until retried); and in one process ICNTL(7) = 2, approximate minimum
/// fill, which factored those matrices faster than PORD, AMD and QAMD (docs/distributed.md,
/// "Measured"), but which Debian's MUMPS 5.5.1 ends in a segmentation fault when the matrix is
/// distributed over processes (nfourbar n = 1e4 on 2): there MUMPS chooses its ordering itself.
/// Set as options, not by MatMumpsSetIcntl, which PETSc's own defaults for them override at the
/// analysis.
constexpr PresetOption kPetscOptions[] = {{"-no_signal_handler", nullptr},
                                          {"-skip_petscrc", nullptr},
                                          {"-mat_mumps_icntl_6", "5"},
                                          {"-mat_mumps_icntl_7", "2", true}};

/// Whether this process is one of an MPI job of several (MPI started, its world larger than one).
bool in_job_of_several() {
  int started = 0;
  MPI_Initialized(&started);
  int size = 1;
  if (started) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size > 1;
}

PetscErrorCode start_petsc() {
  [[maybe_unused]] const LibraryLeaksUnchecked unchecked;
  return PetscInitializeNoArguments();
}

/// Starts PETSc once per process (the caller holds petsc_lock) with kPetscOptions and no command
/// line. Without mpirun, Open MPI starts as a singleton.
void ensure_petsc(const std::string& backend) {
  PetscBool initialized = PETSC_FALSE;
  if (PetscInitialized(&initialized) != 0)
    throw LinearSolverError(backend + ": PETSc's state could not be read");
  if (initialized) return;
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  if (finalized) throw LinearSolverError(backend + ": PETSc has already ended in this process (it starts once)");
  const bool several = in_job_of_several();
  for (const PresetOption& option : kPetscOptions)
    if (!(option.alone && several) && PetscOptionsSetValue(nullptr, option.name, option.value) != 0)
      throw LinearSolverError(backend + ": PETSc's option " + option.name + " could not be set");
  const PetscErrorCode code = start_petsc();
  if (code != 0)
    throw LinearSolverError(backend + ": PETSc could not start (PetscInitialize returned " + std::to_string(code) +
                            ")");
  if (!started_petsc) std::atexit(&finalize_petsc);
  started_petsc = true;
}

/// The largest workspace relaxation ICNTL(14) a factorization retries with, percent: past it, the
/// failure is MUMPS's out of memory (LinearSolverError).
constexpr PetscInt kLargestWorkspaceRelaxation = 1280;

/// The back-end: MUMPS through PETSc's factor matrix (docs/distributed.md: why not KSP, and why
/// not SuperLU_DIST with Debian's PETSc). Rows: this process owns rows [row_begin_, row_begin_ +
/// local_size_) of the n x n matrix; it gives its part of the matrix as entries of any rows (COO,
/// global indices: PETSc moves the others' and sums the parts); on PETSC_COMM_SELF it owns every row.
class PetscLuSolver final : public LinearSolver {
 public:
  /// global_numbers: empty for whole vectors; over parts, each local unknown's number in the whole
  /// system (the matrix's row and column there).
  PetscLuSolver(LinearSolverKind kind, MPI_Comm comm, FillOrdering ordering, std::span<const Index> global_numbers)
      : kind_(kind), comm_(comm), global_numbers_(global_numbers.begin(), global_numbers.end()), ordering_(ordering) {
    const std::lock_guard<std::mutex> hold(petsc_lock());
    ensure_petsc(name());
  }
  ~PetscLuSolver() override {
    const std::lock_guard<std::mutex> hold(petsc_lock());
    destroy();
  }
  PetscLuSolver(const PetscLuSolver&) = delete;
  PetscLuSolver& operator=(const PetscLuSolver&) = delete;

  LinearSolverKind kind() const override { return kind_; }
  bool needs_symmetric_positive_definite() const override { return false; }

  /// The pattern's entries as coordinates, in the pattern's order (factorize's values); this
  /// process's rows: the whole matrix alone, else its run of them (petsc_lu_solver.hpp).
  void analyze_pattern(const CscPattern& pattern) override {
    coo_rows_.clear();
    coo_columns_.clear();
    profile_ = {};
    nd_positions_.clear();
    use_nested_dissection_.reset();
    coo_rows_.reserve(static_cast<std::size_t>(pattern.nnz()));
    coo_columns_.reserve(static_cast<std::size_t>(pattern.nnz()));
    for (Index j = 0; j < pattern.n; ++j)
      for (Index k = pattern.column_starts[static_cast<std::size_t>(j)];
           k < pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k) {
        coo_rows_.push_back(whole_number(pattern.row_indices[static_cast<std::size_t>(k)]));
        coo_columns_.push_back(whole_number(j));
      }
    held_ = pattern.n;
    const Index n = whole_vectors() ? pattern.n : whole_size();
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm_, &rank);
    MPI_Comm_size(comm_, &ranks);
    lay_out(n, n * rank / ranks, n * (rank + 1) / ranks);
  }

  /// A factorization that runs out of MUMPS's estimated workspace (INFOG(1) = -8 or -9: pivots
  /// delayed beyond the analysis's estimate, as the saddle points of constraint rows do) is
  /// redone with a fresh analysis and twice the relaxation ICNTL(14), up to
  /// kLargestWorkspaceRelaxation percent; the relaxation reached stays for this back-end's later
  /// analyses. The relaxation changes memory only, not the factors' values.
  FactorizationStatus factorize(std::span<const double> values) override {
    const std::lock_guard<std::mutex> hold(petsc_lock());
    if (!matrix_) throw LinearSolverError(name() + ": factorize called before analyze_pattern");
    if (values.size() != coo_rows_.size())
      throw LinearSolverError(name() + ": expected " + std::to_string(coo_rows_.size()) + " values, got " +
                              std::to_string(values.size()));
    const ErrorCapture petsc(name());
    factorized_ = false;
    petsc.check(MatSetValuesCOO(matrix_, values.data(), INSERT_VALUES), "setting the matrix's values");
    for (;;) {
      if (!factor_) {
        if (FactorizationStatus status = analyse(petsc); !status.ok) return status;
      }
      MatFactorInfo info;
      petsc.check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
      petsc.check(MatLUFactorNumeric(factor_, matrix_, &info), "the factorization");
      const PetscInt code = infog1(petsc);
      const bool workspace_short = code == -8 || code == -9;
      PetscInt relaxation = 0;
      if (workspace_short) petsc.check(MatMumpsGetIcntl(factor_, 14, &relaxation), "MatMumpsGetIcntl");
      if (workspace_short && relaxation < kLargestWorkspaceRelaxation) {
        workspace_relaxation_ = std::min(kLargestWorkspaceRelaxation, 2 * std::max<PetscInt>(relaxation, 20));
        MatDestroy(&factor_);  // PETSc's MUMPS interface factors no more after a failure: analyse afresh
        continue;
      }
      FactorizationStatus status = factor_status(petsc, "the factorization");
      factorized_ = status.ok;
      if (status.ok && profile_.solver.empty()) profile_ = first_profile(petsc);
      if (!status.ok) MatDestroy(&factor_);  // as above: the next factorize analyses afresh
      return status;
    }
  }

  void solve(std::span<const double> b, std::span<double> x) override { solve_system(false, b, x); }
  void solve_transposed(std::span<const double> b, std::span<double> x) override { solve_system(true, b, x); }

  /// Drops the analysis, with the matrix: MUMPS chooses its scaling and row permutation from the
  /// first matrix's values, so that the next factorize depends on its own values alone only after
  /// a fresh analysis (bitwise, tested).
  void forget_factorization() override {
    if (matrix_) lay_out(size_, row_begin_, row_begin_ + static_cast<Index>(local_size_));
    profile_ = {};
    use_nested_dissection_.reset();
  }
  /// MUMPS's ordering (INFOG(7)), its factors' entries (INFOG(29), summed over the processes) and
  /// flops (RINFOG(3)) of the first factorization since the last analysis of a pattern or
  /// forget_factorization.
  FactorizationProfile factorization_profile() const override { return profile_; }

 private:
  std::string name() const { return std::string(to_string(kind_)); }
  bool whole_vectors() const { return global_numbers_.empty(); }
  PetscInt whole_number(Index i) const {
    return static_cast<PetscInt>(whole_vectors() ? i : global_numbers_[static_cast<std::size_t>(i)]);
  }
  /// Over parts: the whole system's size, one more than the largest global number any process
  /// holds (collective).
  Index whole_size() const {
    long long largest = -1;
    for (const Index g : global_numbers_) largest = std::max<long long>(largest, g);
    long long over_all = 0;
    MPI_Allreduce(&largest, &over_all, 1, MPI_LONG_LONG, MPI_MAX, comm_);
    return static_cast<Index>(over_all + 1);
  }
  bool one_process() const { return local_size_ == static_cast<std::size_t>(size_); }

  /// PETSc's matrix of global size n, this process's rows [row_begin, row_end), preallocated from
  /// the entries (coo_rows_[k], coo_columns_[k]) (global indices, in the order factorize's values
  /// come in).
  void lay_out(Index n, Index row_begin, Index row_end) {
    const std::lock_guard<std::mutex> hold(petsc_lock());
    destroy();
    size_ = n;
    row_begin_ = row_begin;
    std::vector<PetscInt> rows = coo_rows_, columns = coo_columns_;  // PETSc may overwrite them
    const ErrorCapture petsc(name());
    const PetscInt local = row_end - row_begin;
    petsc.check(MatCreate(comm_, &matrix_), "MatCreate");
    petsc.check(MatSetSizes(matrix_, local, local, n, n), "MatSetSizes");
    petsc.check(MatSetType(matrix_, MATAIJ), "MatSetType");
    petsc.check(MatSetPreallocationCOO(matrix_, static_cast<PetscCount>(rows.size()), rows.data(), columns.data()),
                "laying out the pattern (MatSetPreallocationCOO)");
    petsc.check(MatCreateVecs(matrix_, &solution_, &right_side_), "MatCreateVecs");
    local_size_ = static_cast<std::size_t>(local);
    if (!whole_vectors()) {  // over parts: the solution's entries this process holds, by their global numbers
      IS held = nullptr;
      held_numbers_.resize(static_cast<std::size_t>(held_));
      for (Index i = 0; i < held_; ++i) held_numbers_[static_cast<std::size_t>(i)] = whole_number(i);
      petsc.check(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(held_), held_numbers_.data(),
                                  PETSC_COPY_VALUES, &held),
                  "ISCreateGeneral");
      petsc.check(VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(held_), &everywhere_), "VecCreateSeq");
      const PetscErrorCode code = VecScatterCreate(solution_, held, everywhere_, nullptr, &gather_);
      ISDestroy(&held);
      petsc.check(code, "VecScatterCreate");
    } else if (local != n) {  // several processes: the solution gathered to each
      petsc.check(VecScatterCreateToAll(solution_, &gather_, &everywhere_), "VecScatterCreateToAll");
    }
  }

  /// MUMPS's analysis of the matrix (its values set) into a new factor_, with the workspace
  /// relaxation reached so far; on failure the status, and no factor_. In one process the ordering
  /// follows ordering_: nested_dissection gives MUMPS METIS's nested dissection of A + A^T
  /// (ICNTL(7) = 1); automatic analyses with MUMPS's own ordering (kPetscOptions) and, where that
  /// analysis predicts wide fronts (more than kWideFrontFlopsPerEntry estimated flops, RINFOG(1),
  /// per estimated factor entry, INFOG(20): the grids), with the nested dissection too, and keeps
  /// the one predicting fewer flops. On grid2d the given order cuts the factorization's flops
  /// eightfold (docs/distributed.md, "Measured"); on chains MUMPS's own is as good and costs no
  /// METIS call. The choice is made at the first analysis after analyze_pattern or
  /// forget_factorization and kept for the retries. Over several processes MUMPS orders (PETSc
  /// passes a given order to MUMPS's centralized input only).
  FactorizationStatus analyse(const ErrorCapture& petsc) {
    if (use_nested_dissection_) return analyse_in(petsc, *use_nested_dissection_);
    if (ordering_ == FillOrdering::nested_dissection) {
      use_nested_dissection_ = true;
      analysis_reason_ = "--ordering nd: METIS's nested dissection given to MUMPS (ICNTL(7) = 1)";
      return analyse_in(petsc, true);
    }
    FactorizationStatus own = analyse_in(petsc, false);
    use_nested_dissection_ = false;
    analysis_reason_ = "MUMPS's analysis";
    if (!own.ok || !one_process()) return own;
    const auto [own_flops, own_entries] = analysis_estimate(petsc);
    const double per_entry = own_flops / std::max(own_entries, 1.0);
    if (per_entry <= kWideFrontFlopsPerEntry) {
      analysis_reason_ += ": narrow fronts (" + format_number(per_entry) + " estimated flops per factor entry)";
      return own;
    }
    Mat own_factor = factor_;
    factor_ = nullptr;
    const FactorizationStatus given = analyse_in(petsc, true);
    const double given_flops = given.ok ? analysis_estimate(petsc).first : 0.0;
    const std::string figures = "estimated flops: MUMPS's ordering " + format_number(own_flops) +
                                ", nested dissection " + (given.ok ? format_number(given_flops) : "failed");
    if (given.ok && given_flops < own_flops) {
      MatDestroy(&own_factor);
      use_nested_dissection_ = true;
      analysis_reason_ = "METIS's nested dissection given to MUMPS (ICNTL(7) = 1): wide fronts, " + figures;
      return given;
    }
    MatDestroy(&factor_);
    factor_ = own_factor;
    analysis_reason_ += ": wide fronts, " + figures;
    return own;
  }

  /// One analysis into a new factor_: MUMPS's own ordering, or the nested dissection given.
  FactorizationStatus analyse_in(const ErrorCapture& petsc, bool nested_dissection) {
    [[maybe_unused]] const LibraryLeaksUnchecked unchecked;
    petsc.check(MatGetFactor(matrix_, MATSOLVERMUMPS, MAT_FACTOR_LU, &factor_), "MatGetFactor");
    if (workspace_relaxation_ > 0)
      petsc.check(MatMumpsSetIcntl(factor_, 14, workspace_relaxation_), "MatMumpsSetIcntl");
    MatFactorInfo info;
    petsc.check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
    IS order = nullptr;
    if (nested_dissection) {
      const std::vector<PetscInt>& positions = nested_dissection_positions();
      petsc.check(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(positions.size()), positions.data(),
                                  PETSC_USE_POINTER, &order),
                  "ISCreateGeneral");
    }
    const PetscErrorCode code = MatLUFactorSymbolic(factor_, matrix_, order, order, &info);
    ISDestroy(&order);
    petsc.check(code, "the analysis");
    FactorizationStatus status = factor_status(petsc, "the analysis");
    if (!status.ok) MatDestroy(&factor_);  // the next factorize analyses afresh
    return status;
  }

  /// position[i]: where unknown i comes in METIS's nested dissection of the pattern (MUMPS's
  /// PERM_IN, 0-based: PETSc adds 1), computed once per pattern from the entries (one process).
  const std::vector<PetscInt>& nested_dissection_positions() {
    if (!nd_positions_.empty()) return nd_positions_;
    CscPattern pattern;
    pattern.n = size_;
    pattern.column_starts.assign(static_cast<std::size_t>(size_) + 1, 0);
    for (const PetscInt j : coo_columns_) ++pattern.column_starts[static_cast<std::size_t>(j) + 1];
    for (std::size_t j = 0; j < static_cast<std::size_t>(size_); ++j)
      pattern.column_starts[j + 1] += pattern.column_starts[j];
    pattern.row_indices.assign(coo_rows_.begin(), coo_rows_.end());  // already in column order
    const std::vector<Index> positions = elimination_positions(nested_dissection_order(pattern));
    nd_positions_.assign(positions.begin(), positions.end());
    return nd_positions_;
  }

  /// MUMPS's estimates after an analysis: flops of the elimination (RINFOG(1)) and factor entries
  /// (INFOG(20); a negative value counts millions).
  std::pair<double, double> analysis_estimate(const ErrorCapture& petsc) const {
    PetscReal flops = 0.0;
    PetscInt entries = 0;
    petsc.check(MatMumpsGetRinfog(factor_, 1, &flops), "MatMumpsGetRinfog");
    petsc.check(MatMumpsGetInfog(factor_, 20, &entries), "MatMumpsGetInfog");
    return {static_cast<double>(flops), entries < 0 ? -1e6 * static_cast<double>(entries) : static_cast<double>(entries)};
  }

  /// The profile of the factorization just done (factorization_profile).
  FactorizationProfile first_profile(const ErrorCapture& petsc) const {
    static constexpr const char* kOrderings[] = {"amd", "given", "amf", "scotch", "pord", "metis", "qamd"};
    PetscInt ordering = -1, entries = 0;
    PetscReal flops = 0.0;
    petsc.check(MatMumpsGetInfog(factor_, 7, &ordering), "MatMumpsGetInfog");
    petsc.check(MatMumpsGetInfog(factor_, 29, &entries), "MatMumpsGetInfog");
    petsc.check(MatMumpsGetRinfog(factor_, 3, &flops), "MatMumpsGetRinfog");
    const std::string method =
        ordering >= 0 && ordering < 7 ? kOrderings[ordering] : "ICNTL(7) = " + std::to_string(ordering);
    return {.solver = "mumps",
            .ordering = method,
            .reason = analysis_reason_ + " (INFOG(7) = " + std::to_string(ordering) + ")",
            .factor_entries = static_cast<Index>(entries),
            .flops = static_cast<double>(flops)};
  }

  PetscInt infog1(const ErrorCapture& petsc) const {
    PetscInt code = 0;
    petsc.check(MatMumpsGetInfog(factor_, 1, &code), "MatMumpsGetInfog");
    return code;
  }

  /// The factor's status after a phase: its MatFactorError as a failed status naming MUMPS's code,
  /// or ok. Out of memory throws LinearSolverError (as the other back-ends), the factor dropped.
  FactorizationStatus factor_status(const ErrorCapture& petsc, const char* phase) {
    MatFactorError error = MAT_FACTOR_NOERROR;
    petsc.check(MatFactorGetError(factor_, &error), "MatFactorGetError");
    if (error == MAT_FACTOR_NOERROR) return {};
    std::string what;
    switch (error) {
      case MAT_FACTOR_STRUCT_ZEROPIVOT: what = "the matrix is structurally singular"; break;
      case MAT_FACTOR_NUMERIC_ZEROPIVOT: what = "the matrix is singular"; break;
      case MAT_FACTOR_OUTMEMORY: what = "out of memory"; break;
      default: what = "failed"; break;
    }
    PetscInt info2 = 0;
    petsc.check(MatMumpsGetInfo(factor_, 2, &info2), "MatMumpsGetInfo");
    const std::string detail =
        "MUMPS INFOG(1) = " + std::to_string(infog1(petsc)) + ", INFO(2) = " + std::to_string(info2);
    if (error == MAT_FACTOR_OUTMEMORY) {
      MatDestroy(&factor_);
      throw LinearSolverError(name() + ": " + what + " in " + phase + " (" + detail + ")");
    }
    return {false, name() + ": " + what + " (" + detail + ", in " + phase + ")"};
  }

  void solve_system(bool transposed, std::span<const double> b, std::span<double> x) {
    const std::lock_guard<std::mutex> hold(petsc_lock());
    if (!factorized_) throw LinearSolverError(name() + ": solve called without a successful factorization");
    check_solve_sizes(name(), whole_vectors() ? size_ : held_, b, x);
    const ErrorCapture petsc(name());
    set_right_side(petsc, b);
    if (transposed)
      petsc.check(MatSolveTranspose(factor_, right_side_, solution_), "the transposed solve");
    else
      petsc.check(MatSolve(factor_, right_side_, solution_), "the solve");
    const Vec whole = gather_ ? everywhere_ : solution_;
    if (gather_) {
      petsc.check(VecScatterBegin(gather_, solution_, everywhere_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
      petsc.check(VecScatterEnd(gather_, solution_, everywhere_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
    }
    const PetscScalar* result = nullptr;
    petsc.check(VecGetArrayRead(whole, &result), "VecGetArrayRead");
    std::copy(result, result + x.size(), x.begin());
    petsc.check(VecRestoreArrayRead(whole, &result), "VecRestoreArrayRead");
  }

  /// PETSc's right side from b: whole vectors, this process's run of rows; over parts, every row
  /// held here at its global number (a row that several processes hold has the same value on each,
  /// the whole system's, so which one PETSc keeps does not matter).
  void set_right_side(const ErrorCapture& petsc, std::span<const double> b) {
    if (!whole_vectors()) {
      petsc.check(VecSetValues(right_side_, static_cast<PetscInt>(held_), held_numbers_.data(), b.data(), INSERT_VALUES),
                  "VecSetValues");
      petsc.check(VecAssemblyBegin(right_side_), "VecAssemblyBegin");
      petsc.check(VecAssemblyEnd(right_side_), "VecAssemblyEnd");
      return;
    }
    PetscScalar* entries = nullptr;
    petsc.check(VecGetArrayWrite(right_side_, &entries), "VecGetArrayWrite");
    std::copy_n(b.begin() + row_begin_, local_size_, entries);
    petsc.check(VecRestoreArrayWrite(right_side_, &entries), "VecRestoreArrayWrite");
  }

  /// Frees PETSc's objects (the caller holds petsc_lock); after PETSc has ended (a back-end that
  /// outlives main), there is nothing left to free.
  void destroy() {
    factorized_ = false;
    PetscBool finalized = PETSC_FALSE;
    if (PetscFinalized(&finalized) != 0 || finalized) return;
    VecScatterDestroy(&gather_);
    VecDestroy(&everywhere_);
    VecDestroy(&solution_);
    VecDestroy(&right_side_);
    MatDestroy(&matrix_);
    MatDestroy(&factor_);
  }

  LinearSolverKind kind_;
  MPI_Comm comm_;
  Mat matrix_ = nullptr;
  Mat factor_ = nullptr;  ///< with MUMPS's analysis, after the first factorize
  Vec solution_ = nullptr, right_side_ = nullptr;
  /// Several processes: this process's rows of the solution to everywhere_, the whole solution on
  /// every process; over parts, the entries this process holds, to everywhere_ of held_ entries.
  VecScatter gather_ = nullptr;
  Vec everywhere_ = nullptr;
  std::vector<Index> global_numbers_;  ///< over parts (empty: whole vectors)
  Index held_ = 0;                     ///< the unknowns this process holds: the pattern's n
  std::vector<PetscInt> held_numbers_;  ///< over parts: their global numbers, PETSc's indices
  Index size_ = 0;       ///< n, of the whole matrix
  Index row_begin_ = 0;  ///< the first row of this process
  std::vector<PetscInt> coo_rows_, coo_columns_;  ///< the entries of this process's rows, global indices
  std::size_t local_size_ = 0;  ///< rows of this process
  PetscInt workspace_relaxation_ = 0;  ///< ICNTL(14) of the next analysis, percent; 0: PETSc's default
  FillOrdering ordering_;
  std::optional<bool> use_nested_dissection_;  ///< the ordering chosen at the first analysis (analyse)
  std::vector<PetscInt> nd_positions_;         ///< nested_dissection_positions, once computed
  std::string analysis_reason_;                ///< why that ordering (the profile's reason)
  FactorizationProfile profile_;
  bool factorized_ = false;
};

}  // namespace

std::unique_ptr<LinearSolver> make_petsc_lu_solver(LinearSolverKind kind, const Distribution* processes,
                                                   FillOrdering ordering, std::span<const Index> global_numbers) {
  if (kind != LinearSolverKind::mumps)
    throw std::invalid_argument("make_petsc_lu_solver: " + std::string(to_string(kind)) + " is not a PETSc back-end (mumps)");
  const bool several = processes && processes->ranks() > 1;
  if (several && ordering != FillOrdering::automatic)
    throw LinearSolverError("mumps over several processes orders the distributed matrix itself (PETSc gives MUMPS "
                            "an ordering of ours in one process only): leave the ordering at auto, not " +
                            std::string(to_string(ordering)));
  if (ordering != FillOrdering::automatic && ordering != FillOrdering::nested_dissection)
    throw LinearSolverError("mumps takes the orderings auto and nd, not " + std::string(to_string(ordering)) +
                            " (which orders for klu and umfpack)");
  if (!global_numbers.empty() && !several)
    throw std::invalid_argument("make_petsc_lu_solver: global numbers are for a system held in parts by several processes");
  return std::make_unique<PetscLuSolver>(kind, several ? MPI_COMM_WORLD : PETSC_COMM_SELF, ordering, global_numbers);
}

}  // namespace noether
