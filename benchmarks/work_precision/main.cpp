/// noether_simbody_work_precision: Noether's steppers against Simbody's integrators on the same
/// mechanisms (docs/performance.md, "Work-precision against Simbody").
///
///   noether_simbody_work_precision --out FILE.json [--case MECHANISM:N]... [--steppers A,B,...]
///       [--integrators A,B,...] [--repeats R] [--max-run-seconds S] [--stop-error E] [--threads T]
///       [--reference-steps N] [--tight-accuracy A] [--agreement-tolerance D] [--clock wall|cpu]
///
/// For each case (default chain2d:100, chain2d:1000, chain3d:100, nfourbar:10, nfourbar:40,
/// nfourbar:160), with the same mechanism built in both engines:
///  1. the reference probe at t_end: the closed form of the parallelogram motion for nfourbar
///     (parallelogram.hpp), em-ggl6 with --reference-steps steps for the chains (its error
///     estimated from the run with half as many steps: difference / (2^6 - 1));
///  2. the agreement check: the probe at t_end k/10, k = 1 .. 10, of em-ggl6 (nfourbar:
///     livens-em6) with --reference-steps steps and of Simbody's RK-Merson at --tight-accuracy must
///     agree to --agreement-tolerance (for nfourbar each also with the closed form; Simbody's run
///     there stops at the first singular configuration, t = 0.72, and is compared before it). A
///     case that fails it stops the program with exit status 3: its work-precision points would
///     compare different mechanisms;
///  3. the sweeps: each Noether stepper with h = t_end/N, N = 1, 2, 3, 4, 6, 8, 11, 16, ... (factors
///     of sqrt 2, rounded), each Simbody integrator with accuracy 0.32, 0.1, 0.032, ... (factors of
///     sqrt 10), until the error of the probe at t_end drops to --stop-error, a run takes more than
///     --max-run-seconds and more than the run before (a run is abandoned at twice that), three
///     runs in a row fail (Noether's runs of fewer than 4 steps not counted), or, for Simbody, at
///     the accuracy 1e-14. The sweeps of a case take turns, one point each, in the order of
///     --steppers and then --integrators, so that a drift of the machine's speed during the case
///     falls on both engines' points alike.
///     Each point: the error |probe(t_end) - reference| (m) and the time (wall clock, or with
///     --clock cpu the process's CPU time), for runs under 2 s the best of --repeats runs (one run
///     above). The repeats are made in rounds: once the sweeps have found the case's points, each
///     further round runs every such point again, in the sweeps' order, so that a point's runs lie
///     minutes apart and a slow spell of the machine of that length rarely takes all of them.
/// The results go to FILE.json (rewritten after each case); benchmarks/work_precision/report plots
/// them and tabulates the time ratios. Exit status: 0 done, 1 a reference or check run failed,
/// 2 usage error, 3 agreement check failed.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>

#include <noether/steppers/stepper_registry.hpp>

#include "../measurement_tables.hpp"
#include "comparison_case.hpp"
#include "noether_runs.hpp"
#include "parallelogram.hpp"
#include "simbody_mechanism.hpp"

namespace {

using namespace noether;
using namespace noether::work_precision;
using measurement::fixed;
using measurement::scientific;
using nlohmann::json;

constexpr int kExitUsage = 2;
constexpr int kExitDisagreement = 3;
/// The agreement check samples the probe at t_end k/kCheckSamples.
constexpr int kCheckSamples = 10;
/// Noether's side of the agreement check, and the chains' reference: em-ggl6, of order 6 with
/// constraints (tests/steppers/test_composition.cpp); on nfourbar livens-em6, because em-ggl6's
/// Newton iteration fails at the singular configuration (nfourbar n = 40, h = 1e-3, t = 0.72)
/// and livens-em6 passes it.
constexpr const char* kChainStepper = "em-ggl6";
constexpr int kChainStepperOrder = 6;
constexpr const char* kLinkageStepper = "livens-em6";
/// Runs shorter than this are repeated (--repeats, in rounds: CaseRunner::sweeps) and the fastest kept.
constexpr double kRepeatBelowSeconds = 2.0;
/// Noether's sweep: N = round(2^(k/2)) steps, k = 0, 1, ... (1, 2, 3, 4, 6, 8, 11, 16, ...; a
/// repeated N skipped), at most kMaxSteps. It starts at one step over the whole interval, as
/// Simbody's starts at its coarsest accuracy. Failed runs with fewer than kCountedFailuresFrom
/// steps (too coarse for Newton even after step refinement) do not count towards kFailuresInARow.
constexpr long kMaxSteps = 1L << 20;
constexpr long kCountedFailuresFrom = 4;
/// Simbody's sweep: accuracy 10^(-k/2) from k = 1 (Simbody asserts accuracy < 1) while the accuracy is at least kTightestAccuracy.
constexpr double kTightestAccuracy = 1e-14;
/// A sweep stops after this many failed runs in a row.
constexpr int kFailuresInARow = 3;

struct Options {
  std::vector<std::string> cases{"chain2d:100", "chain2d:1000", "chain3d:100", "nfourbar:10", "nfourbar:40", "nfourbar:160"};
  std::vector<std::string> steppers{"livens-em", "em-ggl", "livens-em4", "em-ggl4", "livens-em6", "em-ggl6", "lobatto4"};
  std::vector<std::string> integrators{"rk-merson", "cpodes", "cpodes-adams"};
  std::string out;
  int repeats = 3;
  double max_run_seconds = 20.0;
  double stop_error = 1e-8;
  int threads = 1;
  long reference_steps = 400;
  double tight_accuracy = 1e-10;
  double agreement_tolerance = 1e-8;
  TimeMeasure clock = TimeMeasure::wall;
};

double distance(const Eigen::Vector3d& a, const Eigen::Vector3d& b) { return (a - b).norm(); }

/// max |a_k - b_k| over the first `count` samples.
double max_distance(const std::vector<Eigen::Vector3d>& a, const std::vector<Eigen::Vector3d>& b, std::size_t count) {
  double worst = 0.0;
  for (std::size_t k = 0; k < count; ++k) worst = std::max(worst, distance(a[k], b[k]));
  return worst;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

json to_json(const Eigen::Vector3d& x) { return json::array({x.x(), x.y(), x.z()}); }

/// Fails with the run's message: a run the reference or the agreement check needs did not finish.
const IntegrationRun& require_success(const IntegrationRun& run, const std::string& what) {
  if (!run.failure.empty()) throw std::runtime_error(what + " failed: " + run.failure);
  return run;
}

class CaseRunner {
 public:
  CaseRunner(const ComparisonCase& c, const Options& options)
      : case_(c), options_(options), model_(build_noether_model(c)), simbody_(c.simbody_spec()) {}

  /// Reference, agreement check and sweeps; the case's JSON. `agreed` false when the check failed
  /// (the sweeps are then not run).
  json run(bool& agreed) {
    json result{{"mechanism", case_.mechanism_name()}, {"n", case_.n}, {"probe", case_.probe_name()},
                {"t_end", case_.t_end}, {"parameters", case_.parameters}};
    print_heading();
    result["reference"] = reference();
    result["agreement"] = agreement(agreed);
    if (!agreed) return result;
    result["runs"] = sweeps();
    return result;
  }

 private:
  void print_heading() const {
    std::cout << "\n== " << case_.mechanism_name() << " n = " << case_.n << ": probe " << case_.probe_name()
              << " at t = " << case_.t_end << '\n';
  }

  const char* tight_stepper() const {
    return case_.mechanism == MechanismKind::nfourbar ? kLinkageStepper : kChainStepper;
  }

  /// The probe of tight_stepper() with `steps` steps at t_end k/kCheckSamples.
  IntegrationRun tight_run(long steps) const {
    return run_noether(model_, tight_stepper(), steps, case_.t_end, kCheckSamples,
                       std::numeric_limits<double>::infinity(), options_.clock);
  }

  json reference() {
    tight_noether_ = require_success(tight_run(options_.reference_steps),
                                     std::string(tight_stepper()) + " with --reference-steps steps");
    if (case_.mechanism == MechanismKind::nfourbar) {
      const ParallelogramMotion motion(case_.n, case_.parameters.at("top_speed"));
      for (int k = 1; k <= kCheckSamples; ++k) {
        const Eigen::Vector2d x = motion.top_of_first_crank(case_.t_end * k / kCheckSamples);
        exact_.emplace_back(x.x(), x.y(), 0.0);
      }
      reference_ = exact_.back();
      std::cout << "reference: the closed form of the parallelogram motion, B0 = (" << reference_.x() << ", "
                << reference_.y() << ")\n";
      return {{"kind", "closed form"}, {"position", to_json(reference_)}};
    }
    const IntegrationRun half = require_success(tight_run(options_.reference_steps / 2),
                                                std::string(tight_stepper()) + " with half the reference steps");
    reference_ = tight_noether_.probe.back();
    const double estimate = distance(half.probe.back(), reference_) / (std::pow(2.0, kChainStepperOrder) - 1.0);
    std::cout << "reference: " << tight_stepper() << ", " << options_.reference_steps << " steps; its error estimated "
              << scientific(estimate) << " m (difference to " << options_.reference_steps / 2 << " steps / 63)\n";
    return {{"kind", tight_stepper()},
            {"steps", options_.reference_steps},
            {"position", to_json(reference_)},
            {"error_estimate", estimate}};
  }

  json agreement(bool& agreed) {
    const IntegrationRun tight_simbody = simbody_.run("rk-merson", options_.tight_accuracy, case_.t_end, kCheckSamples,
                                                      std::numeric_limits<double>::infinity(), options_.clock);
    // Simbody's tight run may stop early (on nfourbar at the first singular configuration): the
    // check then compares the samples before.
    const std::size_t compared = tight_simbody.probe.size();
    const double tolerance = options_.agreement_tolerance;
    json simbody{{"integrator", "rk-merson"},
                 {"accuracy", options_.tight_accuracy},
                 {"steps", tight_simbody.steps},
                 {"seconds", tight_simbody.seconds}};
    if (!tight_simbody.failure.empty()) simbody["failure"] = tight_simbody.failure;
    json check{{"samples", kCheckSamples},
               {"samples_compared", compared},
               {"tolerance", tolerance},
               {"noether",
                {{"stepper", tight_stepper()}, {"steps", options_.reference_steps}, {"seconds", tight_noether_.seconds}}},
               {"simbody", std::move(simbody)}};
    if (!tight_simbody.failure.empty())
      std::cout << "Simbody rk-merson " << scientific(options_.tight_accuracy, 0) << " stopped after " << compared
                << " of " << kCheckSamples << " samples: " << first_line(tight_simbody.failure) << '\n';
    const double engines = max_distance(tight_noether_.probe, tight_simbody.probe, compared);
    check["noether_vs_simbody"] = engines;
    agreed = compared > 0 && engines <= tolerance;
    std::cout << "agreement at t = " << case_.t_end / kCheckSamples << " .. "
              << case_.t_end * static_cast<double>(compared) / kCheckSamples << ": max |" << tight_stepper()
              << " - Simbody rk-merson " << scientific(options_.tight_accuracy, 0) << "| = " << scientific(engines);
    if (!exact_.empty()) {
      const double noether_exact = max_distance(tight_noether_.probe, exact_, exact_.size());
      const double simbody_exact = max_distance(tight_simbody.probe, exact_, compared);
      check["noether_vs_exact"] = noether_exact;
      check["simbody_vs_exact"] = simbody_exact;
      agreed = agreed && noether_exact <= tolerance && simbody_exact <= tolerance;
      std::cout << "; against the closed form: Noether " << scientific(noether_exact) << " (t = "
                << case_.t_end / kCheckSamples << " .. " << case_.t_end << "), Simbody " << scientific(simbody_exact);
    }
    check["passed"] = agreed;
    std::cout << (agreed ? " (agree to " : " AGREEMENT CHECK FAILED (tolerance ") << scientific(tolerance, 0)
              << "; runs of " << fixed(tight_noether_.seconds, 1) << " s and " << fixed(tight_simbody.seconds, 1)
              << " s)\n";
    return check;
  }

  double error_of(const IntegrationRun& run) const { return distance(run.probe.back(), reference_); }

  /// A point's JSON: its first run (seconds, setup_seconds, round_seconds [seconds]; repeats 1).
  json record(const char* engine, const std::string& method, const char* setting_name, double setting,
              const IntegrationRun& run) const {
    json point{{"engine", engine},
               {"method", method},
               {setting_name, setting},
               {"seconds", run.seconds},
               {"setup_seconds", run.setup_seconds},
               {"repeats", 1},
               {"round_seconds", json::array({run.seconds})},
               {"steps", run.steps},
               {"retries", run.retries},
               {"stalled_steps", run.stalled_steps},
               {"ok", run.failure.empty()}};
    std::cout << "  " << std::left << std::setw(8) << engine << std::setw(13) << method << setting_name << ' '
              << std::setw(9) << scientific(setting) << std::right;
    if (run.failure.empty()) {
      point["error"] = error_of(run);
      point["probe"] = to_json(run.probe.back());
      std::cout << "  error " << scientific(error_of(run)) << "  " << fixed(run.seconds, 4) << " s  steps "
                << run.steps << '\n';
    } else {
      point["failure"] = run.failure;
      std::cout << "  FAILED: " << first_line(run.failure) << '\n';
    }
    return point;
  }

  /// Whether a sweep goes on after `run`. `failures_in_a_row` counts the failed runs ending with
  /// it, `previous_seconds` is the time of the last successful run before it (infinite at first):
  /// a run over --max-run-seconds ends the sweep only when it took longer than that one, since the
  /// coarsest steps can cost more than finer ones (Newton iterations, refined steps).
  bool go_on(const IntegrationRun& run, int& failures_in_a_row, double& previous_seconds) const {
    if (!run.failure.empty()) return !run.timed_out && ++failures_in_a_row < kFailuresInARow;
    failures_in_a_row = 0;
    const bool too_long = run.seconds > options_.max_run_seconds && run.seconds >= previous_seconds;
    previous_seconds = run.seconds;
    return error_of(run) > options_.stop_error && !too_long;
  }

  /// One method's sweep, measured a point at a time: a Noether stepper's N (kMaxSteps) or a Simbody
  /// integrator's accuracy (kTightestAccuracy), coarsest first, until go_on stops it.
  struct Sweep {
    bool noether;  ///< a Noether stepper, else a Simbody integrator
    std::string method;
    int k = 0;            ///< the index of the next setting (N = round(2^(k/2)), accuracy 10^(-(k+1)/2))
    long last_steps = 0;  ///< Noether: the last N measured (a repeated N is skipped)
    int failures_in_a_row = 0;
    double previous_seconds = std::numeric_limits<double>::infinity();
    bool done = false;
  };

  /// A point measured again in the rounds: its method and setting, and its JSON in the runs.
  struct Repeated {
    bool noether;
    std::string method;
    double setting;  ///< Simbody's accuracy (Noether's h is t_end / steps)
    long steps;      ///< Noether's N
    std::size_t index;
  };

  /// The points of every stepper's and integrator's sweep. The sweeps take turns, a point each, so
  /// that a drift of the machine's speed during the case (docs/notebook.md, "The clock") falls
  /// on both engines' points of a round alike, not on whichever sweeps ran while it lasted. Then
  /// --repeats - 1 rounds over the points that took under kRepeatBelowSeconds (repeat_round).
  json sweeps() const {
    std::vector<Sweep> all;
    for (const std::string& stepper : options_.steppers) all.push_back({true, stepper});
    for (const std::string& integrator : options_.integrators) all.push_back({false, integrator});
    json runs = json::array();
    std::vector<Repeated> repeated;
    for (bool measuring = true; measuring;) {
      measuring = false;
      for (Sweep& sweep : all) {
        if (sweep.done) continue;
        measure_next(sweep, runs, repeated);
        measuring = true;
      }
    }
    for (int round = 2; round <= options_.repeats && !repeated.empty(); ++round) repeat_round(round, repeated, runs);
    return runs;
  }

  /// One timed run of a point, abandoned at twice --max-run-seconds.
  IntegrationRun run_point(bool noether, const std::string& method, double setting, long steps) const {
    const double limit = 2 * options_.max_run_seconds;
    return noether ? run_noether(model_, method, steps, case_.t_end, 1, limit, options_.clock)
                   : simbody_.run(method, setting, case_.t_end, 1, limit, options_.clock);
  }

  /// Runs every point of `repeated` once more, in order, into its JSON: round_seconds gains the
  /// time (null for a run that failed, which a deterministic run that succeeded before does only
  /// at the time limit), repeats counts the run, and seconds and setup_seconds become the
  /// fastest run's.
  void repeat_round(int round, const std::vector<Repeated>& repeated, json& runs) const {
    const RunClock clock(TimeMeasure::wall);
    double slowest_ratio = 0.0;  // of a run of this round to its point's fastest before it
    for (const Repeated& point : repeated) {
      const IntegrationRun run = run_point(point.noether, point.method, point.setting, point.steps);
      json& entry = runs[point.index];
      entry["repeats"] = entry["repeats"].get<int>() + 1;
      if (!run.failure.empty()) {
        entry["round_seconds"].push_back(nullptr);
        continue;
      }
      entry["round_seconds"].push_back(run.seconds);
      slowest_ratio = std::max(slowest_ratio, run.seconds / entry["seconds"].get<double>());
      if (run.seconds < entry["seconds"].get<double>()) {
        entry["seconds"] = run.seconds;
        entry["setup_seconds"] = run.setup_seconds;
      }
    }
    std::cout << "  round " << round << " of " << options_.repeats << ": " << repeated.size() << " points again in "
              << fixed(clock.elapsed(), 1) << " s; the slowest took " << fixed(slowest_ratio, 2)
              << " times its point's fastest run before\n";
  }

  /// The sweep's next setting, advancing it: Noether's h = t_end/N (N in Sweep::last_steps), Simbody's
  /// accuracy; none when the sweep has run out of settings (kMaxSteps, kTightestAccuracy).
  std::optional<double> next_setting(Sweep& sweep) const {
    if (!sweep.noether) {
      const double accuracy = std::pow(10.0, -(sweep.k++ + 1) / 2.0);
      return accuracy < kTightestAccuracy ? std::nullopt : std::optional<double>(accuracy);
    }
    long steps = sweep.last_steps;
    while (steps == sweep.last_steps) steps = std::lround(std::pow(2.0, sweep.k++ / 2.0));
    if (steps > kMaxSteps) return std::nullopt;
    sweep.last_steps = steps;
    return case_.t_end / static_cast<double>(steps);
  }

  /// Measures the sweep's next point into runs (and into `repeated` when it took under
  /// kRepeatBelowSeconds), or marks the sweep done when it has none left or go_on stops it there.
  void measure_next(Sweep& sweep, json& runs, std::vector<Repeated>& repeated) const {
    const std::optional<double> setting = next_setting(sweep);
    if (!setting) {
      sweep.done = true;
      return;
    }
    const IntegrationRun run = run_point(sweep.noether, sweep.method, *setting, sweep.last_steps);
    if (run.failure.empty() && run.seconds < kRepeatBelowSeconds)
      repeated.push_back({sweep.noether, sweep.method, *setting, sweep.last_steps, runs.size()});
    runs.push_back(
        record(sweep.noether ? "noether" : "simbody", sweep.method, sweep.noether ? "h" : "accuracy", *setting, run));
    sweep.done = !go_on(run, sweep.failures_in_a_row, sweep.previous_seconds);
    if (sweep.noether && sweep.last_steps < kCountedFailuresFrom) sweep.failures_in_a_row = 0;
  }

  const ComparisonCase& case_;
  const Options& options_;
  Model model_;
  SimbodyMechanism simbody_;
  IntegrationRun tight_noether_;
  std::vector<Eigen::Vector3d> exact_;  ///< nfourbar: the closed form at the check's sample times
  Eigen::Vector3d reference_ = Eigen::Vector3d::Zero();
};

json context(const Options& options, int argc, char** argv) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  double load[3] = {};
  const int loads = getloadavg(load, 3);
  const std::time_t now = std::time(nullptr);
  char date[64] = {};
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
  std::vector<std::string> command(argv, argv + argc);
  return {{"date", date},
          {"host", host},
          {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
          {"load_average_at_start", std::vector<double>(load, load + std::max(loads, 0))},
          {"command", command},
          {"threads", options.threads},
          {"repeats", options.repeats},
          {"max_run_seconds", options.max_run_seconds},
          {"stop_error", options.stop_error},
          {"reference_steps", options.reference_steps},
          {"tight_accuracy", options.tight_accuracy},
          {"agreement_tolerance", options.agreement_tolerance},
          {"clock", options.clock == TimeMeasure::cpu ? "cpu" : "wall"},
          {"sweeps", "in turns"},  // CaseRunner::sweeps; files without it ran them one after another
          {"repeats_made", "in rounds"}};  // CaseRunner::repeat_round; files without it repeated each run at once
}

void write_json(const std::string& path, const json& document) {
  std::ofstream file(path);
  file << document.dump(1) << '\n';
  if (!file) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{"Work-precision of Noether's steppers against Simbody's integrators on the same mechanisms"};
  app.add_option("--out", options.out, "JSON file of the results (rewritten after each case)")->required();
  app.add_option("--case", options.cases, "MECHANISM:N, repeatable (chain2d, chain3d, nfourbar)")->capture_default_str();
  app.add_option("--steppers", options.steppers, "Noether's steppers")->delimiter(',')->capture_default_str();
  app.add_option("--integrators", options.integrators, "Simbody's integrators (rk-merson, cpodes, cpodes-adams)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--repeats", options.repeats,
                 "runs under 2 s: the best of this many, one in each round over the case's points")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--max-run-seconds", options.max_run_seconds,
                 "a sweep stops after a run this long (and longer than the one before)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--stop-error", options.stop_error, "a sweep stops once the error is this small (m)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--threads", options.threads, "threads for Noether (Simbody runs on one)")->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--reference-steps", options.reference_steps, "steps of em-ggl6 for the reference (even)")
      ->check(CLI::Range(2L, kMaxSteps))
      ->capture_default_str();
  app.add_option("--tight-accuracy", options.tight_accuracy, "Simbody rk-merson accuracy of the agreement check")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--agreement-tolerance", options.agreement_tolerance, "the engines must agree to this (m)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  std::string clock = "wall";
  app.add_option("--clock", clock,
                 "what a run's time counts: wall (the wall clock) or cpu (the process's CPU time, for a machine "
                 "shared with other work)")
      ->check(CLI::IsMember({"wall", "cpu"}))
      ->capture_default_str();
  std::vector<ComparisonCase> cases;
  try {
    app.parse(argc, argv);
    options.clock = clock == "cpu" ? TimeMeasure::cpu : TimeMeasure::wall;
    if (options.reference_steps % (2 * kCheckSamples) != 0)
      throw std::invalid_argument("--reference-steps must be a multiple of " + std::to_string(2 * kCheckSamples));
    for (const std::string& text : options.cases) cases.push_back(parse_case(text));
    for (const std::string& stepper : options.steppers) find_stepper(stepper);
    for (const std::string& integrator : options.integrators)
      if (std::find(std::begin(kSimbodyIntegrators), std::end(kSimbodyIntegrators), integrator) ==
          std::end(kSimbodyIntegrators))
        throw std::invalid_argument("unknown Simbody integrator '" + integrator +
                                    "'; known: rk-merson, cpodes, cpodes-adams");
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "noether_simbody_work_precision: error: " << e.what() << '\n';
    return kExitUsage;
  }

  std::cout << std::unitbuf;  // progress lines appear as they are written, also into a file
  const tbb::global_control thread_limit(tbb::global_control::max_allowed_parallelism,
                                         static_cast<std::size_t>(options.threads));
  json document{{"context", context(options, argc, argv)}, {"cases", json::array()}};
  try {
    for (const ComparisonCase& c : cases) {
      CaseRunner runner(c, options);
      bool agreed = false;
      document["cases"].push_back(runner.run(agreed));
      write_json(options.out, document);
      if (!agreed) {
        std::cerr << "noether_simbody_work_precision: " << c.mechanism_name() << " n = " << c.n
                  << ": the engines disagree beyond --agreement-tolerance (see above); stopped\n";
        return kExitDisagreement;
      }
    }
  } catch (const std::exception& e) {
    write_json(options.out, document);
    std::cerr << "noether_simbody_work_precision: error: " << e.what() << '\n';
    return 1;
  }
  std::cout << "\nwrote " << options.out << '\n';
  return 0;
}
