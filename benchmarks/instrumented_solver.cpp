#include "instrumented_solver.hpp"

#include <chrono>
#include <cstring>

namespace noether::bench {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::uint64_t hash_bytes(std::span<const double> values, std::uint64_t hash) {
  for (double value : values) {
    unsigned char bytes[sizeof(double)];
    std::memcpy(bytes, &value, sizeof(double));
    for (unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
  }
  return hash;
}

InstrumentedSolver::InstrumentedSolver(std::unique_ptr<LinearSolver> inner, SolverRecord& record)
    : inner_(std::move(inner)), record_(record) {
  record_.inner = inner_.get();
}

void InstrumentedSolver::analyze_pattern(const CscPattern& pattern) {
  const auto start = std::chrono::steady_clock::now();
  inner_->analyze_pattern(pattern);
  record_.analysis_seconds += seconds_since(start);
  ++record_.analyses;
  record_.n = pattern.n;
  record_.nnz = pattern.nnz();
}

FactorizationStatus InstrumentedSolver::factorize(std::span<const double> values) {
  const auto start = std::chrono::steady_clock::now();
  FactorizationStatus status = inner_->factorize(values);
  record_.factorization_seconds.push_back(seconds_since(start));
  if (record_.hash_values) record_.values_hash = hash_bytes(values, record_.values_hash);
  return status;
}

}  // namespace noether::bench
