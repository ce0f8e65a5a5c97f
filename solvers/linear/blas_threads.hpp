#pragma once
/// The threads of the BLAS that the sparse back-ends' dense kernels run on.

namespace noether {

/// Holds the BLAS to one thread while it lives, and gives back the count it found.
///
/// UMFPACK, CHOLMOD and MUMPS factor dense fronts through the BLAS. When that BLAS is OpenBLAS
/// (Debian's libblas.so.3 alternative once `libopenblas0-pthread` is installed), its pool starts
/// one thread per core, and its results change in the last bits with the number of threads
/// (grid2d k = 60 under UMFPACK: the time series differ between OPENBLAS_NUM_THREADS=1 and 2).
/// One BLAS thread keeps a run's results the same for every `--threads` and every process count
/// on a machine, and leaves the cores to the assembly's threads and to the processes of an MPI
/// job (two processes of two-thread pools on two cores would run four threads); the second
/// thread gained about 5 % of grid2d k = 100's step (docs/performance.md, "The solver chosen by
/// the mechanism").
///
/// A user who sets OPENBLAS_NUM_THREADS asks for that count: it is left as OpenBLAS read it.
/// Another BLAS (the reference one, single-threaded) is left alone. Found at run time by
/// OpenBLAS's own symbols in the process, so nothing is linked for it.
///
/// Threads: the count is process-wide; make it in the thread that starts the work, before it.
class BlasThreadLimit {
 public:
  BlasThreadLimit();
  ~BlasThreadLimit();
  BlasThreadLimit(const BlasThreadLimit&) = delete;
  BlasThreadLimit& operator=(const BlasThreadLimit&) = delete;

  /// The BLAS's threads while it lives: 1, OPENBLAS_NUM_THREADS's count, or 0 where the BLAS is
  /// not OpenBLAS (its threads are not known).
  int threads() const;

 private:
  int restored_ = 0;  // the count found, given back at the end; 0: nothing was changed
};

}  // namespace noether
