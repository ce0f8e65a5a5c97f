/// The robot-arm scenario: its PD motors track their trajectories under gravity at the default step,
/// the run reports each motor's largest torque and tracking error (summary probe_maxima), and its
/// energy balance holds with the motors' work.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <noether/apps/runner.hpp>

using namespace noether;

TEST_CASE("robot-arm: the PD motors track to a small error, the run reports torques and errors, the balance holds") {
  for (const char* stepper : {"livens-em", "em-ggl"}) {
    CAPTURE(stepper);
    RunOptions options;
    options.scenario = "robot-arm";
    options.configure().stepper = stepper;
    options.threads = 1;
    const RunOutcome r = run(options);
    REQUIRE(r.ok());
    const RunStatistics& s = r.statistics;
    REQUIRE(s.probe_maxima.size() == 6);
    const char* joints[] = {"base", "shoulder", "elbow"};
    for (std::size_t j = 0; j < 3; ++j) {
      const std::string motor = std::string(joints[j]) + "_motor";
      CHECK(s.probe_maxima[2 * j].first == "actuator:" + motor);
      CHECK(s.probe_maxima[2 * j + 1].first == "tracking_error:" + motor);
      const double torque = s.probe_maxima[2 * j].second, error = s.probe_maxima[2 * j + 1].second;
      MESSAGE(stepper, " ", motor, ": largest torque ", torque, " N m, largest tracking error ", error, " rad");
      // Swings of 0.8 to 1.2 rad: the gravity torque (at most ~9 N m at the shoulder) over kp and the
      // PD lag kd r'/kp keep the error below 1 % of them; measured 3.5e-3 to 5.6e-3 rad.
      CHECK(error < 1e-2);
      CHECK(error > 1e-4);  // a real error: gravity and the motion are felt
      CHECK(torque > 1.0);  // the motors hold the arm against gravity
    }
    // Newton's tolerance on energies of about 10 J, with the motors' work in W (measured 2.6e-14).
    CHECK(s.energy_balance_max_abs <= 1e-12 * std::abs(s.energy_initial));
    CHECK(std::abs(s.work_total) > 1e-3);
  }
}
