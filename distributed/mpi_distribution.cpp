#include <noether/distributed/mpi_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include <noether/engine/library_leaks.hpp>

namespace noether {
namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

/// MPI_Finalize at exit, for MPI started by world(). Registered before any library that starts
/// on MPI (PETSc: solvers/linear/petsc_lu_solver.cpp) registers its own end, so it runs after
/// theirs (exit handlers run in reverse order of registration).
void finalize_mpi() {
  [[maybe_unused]] const LibraryLeaksUnchecked unchecked;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace

std::shared_ptr<MpiDistribution> MpiDistribution::world() {
  int initialized = 0;
  check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (!initialized) {
    int provided = 0;
    [[maybe_unused]] const LibraryLeaksUnchecked unchecked;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    std::atexit(finalize_mpi);
  }
  int rank = 0, ranks = 1;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");
  return std::shared_ptr<MpiDistribution>(new MpiDistribution(rank, ranks));
}

MpiDistribution::MpiDistribution(int rank, int ranks) : rank_(rank), ranks_(ranks) {}

void MpiDistribution::sum(std::span<double> values) const {
  if (ranks_ == 1 || values.empty()) return;
  const auto count = static_cast<int>(values.size());
  // A left fold along the ranks: rank r receives (..(v_0 + v_1) + ..) + v_{r-1}, adds its own and
  // passes it on; the last rank holds the sum and sends it to all. MPI_Reduce would be faster but
  // may group the additions as its algorithm for the message size likes, even for an operation
  // declared non-commutative (v_0 + (v_1 + v_2) keeps the rank order).
  if (rank_ > 0) {
    if (lower_.size() < values.size()) lower_.resize(values.size());
    check(MPI_Recv(lower_.data(), count, MPI_DOUBLE, rank_ - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = lower_[i] + values[i];
  }
  if (rank_ + 1 < ranks_) check(MPI_Send(values.data(), count, MPI_DOUBLE, rank_ + 1, 0, MPI_COMM_WORLD), "MPI_Send");
  check(MPI_Bcast(values.data(), count, MPI_DOUBLE, ranks_ - 1, MPI_COMM_WORLD), "MPI_Bcast");
}

namespace {

/// MPI_User_function: inout[i] = max(in[i], inout[i]), NaN when either is NaN.
void max_keeping_nan(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *length; ++i)
    b[i] = std::isnan(a[i]) || std::isnan(b[i]) ? std::numeric_limits<double>::quiet_NaN() : std::max(a[i], b[i]);
}

}  // namespace

void MpiDistribution::max(std::span<double> values) const {
  if (ranks_ == 1 || values.empty()) return;
  static const MPI_Op op = [] {
    [[maybe_unused]] const LibraryLeaksUnchecked unchecked;  // MPI_Finalize frees it
    MPI_Op made = MPI_OP_NULL;
    check(MPI_Op_create(&max_keeping_nan, 1, &made), "MPI_Op_create");
    return made;
  }();
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, op, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

void MpiDistribution::exchange(std::span<const Outgoing> sends, std::span<const Incoming> receives) const {
  constexpr int kExchangeTag = 1;  // apart from sum()'s messages
  std::vector<MPI_Request> requests;
  requests.reserve(sends.size() + receives.size());
  for (const Incoming& in : receives)
    check(MPI_Irecv(in.values.data(), static_cast<int>(in.values.size()), MPI_DOUBLE, in.process, kExchangeTag,
                    MPI_COMM_WORLD, &requests.emplace_back()),
          "MPI_Irecv");
  for (const Outgoing& out : sends)
    check(MPI_Isend(out.values.data(), static_cast<int>(out.values.size()), MPI_DOUBLE, out.process, kExchangeTag,
                    MPI_COMM_WORLD, &requests.emplace_back()),
          "MPI_Isend");
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

bool MpiDistribution::any(bool flag) const {
  int local = flag ? 1 : 0, global = 0;
  check(MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD), "MPI_Allreduce");
  return global != 0;
}

int MpiDistribution::ranks_on_this_machine() const {
  MPI_Comm machine = MPI_COMM_NULL;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &machine), "MPI_Comm_split_type");
  int here = 1;
  check(MPI_Comm_size(machine, &here), "MPI_Comm_size");
  check(MPI_Comm_free(&machine), "MPI_Comm_free");
  return here;
}

void MpiDistribution::abort(int exit_code) const {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::abort();  // MPI_Abort does not return; the standard does not say so to the compiler
}

}  // namespace noether
