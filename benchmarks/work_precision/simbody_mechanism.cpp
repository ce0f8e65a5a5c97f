#include "simbody_mechanism.hpp"

#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <Simbody.h>

namespace noether::work_precision {
namespace {

using SimTK::Inertia;
using SimTK::MobilizedBody;
using SimTK::Transform;
using SimTK::Vec3;
/// A bar with its body frame at its left end (the inboard hinge), its axis along x and its centre
/// at (l/2, 0, 0); `central` is its inertia about the centre.
SimTK::Body::Rigid bar_body(const MechanismSpec& spec, const Inertia& central) {
  const Vec3 centre(spec.length / 2, 0, 0);
  return SimTK::Body::Rigid(SimTK::MassProperties(spec.mass, centre, central.shiftFromMassCenter(centre, spec.mass)));
}

/// The planar bar (make_chain2d, make_bar_lattice): m l^2/12 about z. As a thin rod it has the
/// same about y and none about its axis; a Pin about z turns it about z only.
SimTK::Body::Rigid planar_bar(const MechanismSpec& spec) {
  const double j = spec.mass * spec.length * spec.length / 12.0;
  return bar_body(spec, Inertia(0.0, j, j));
}

/// The 3D bar of make_chain3d: square section of side b = l/20.
SimTK::Body::Rigid spatial_bar(const MechanismSpec& spec) {
  const double l = spec.length, b = l / 20.0, m = spec.mass;
  return bar_body(spec, Inertia(m * 2.0 * b * b / 12.0, m * (l * l + b * b) / 12.0, m * (l * l + b * b) / 12.0));
}

std::unique_ptr<SimTK::Integrator> make_integrator(std::string_view name, const SimTK::System& system) {
  if (name == "rk-merson") return std::make_unique<SimTK::RungeKuttaMersonIntegrator>(system);
  if (name == "cpodes") return std::make_unique<SimTK::CPodesIntegrator>(system);
  if (name == "cpodes-adams")
    return std::make_unique<SimTK::CPodesIntegrator>(system, SimTK::CPodes::Adams, SimTK::CPodes::Functional);
  std::string message = "unknown Simbody integrator '";
  message += name;
  message += "'; known: rk-merson, cpodes, cpodes-adams";
  throw std::invalid_argument(message);
}

/// Internal steps between two looks at the clock in SimbodyMechanism::run.
constexpr int kStepsBetweenClockChecks = 50;

}  // namespace

struct SimbodyMechanism::Model {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  MobilizedBody probe_body;
  Vec3 probe_station;
  SimTK::State initial;

  Eigen::Vector3d probe(const SimTK::State& state) const {
    system.realize(state, SimTK::Stage::Position);
    const Vec3 x = probe_body.findStationLocationInGround(state, probe_station);
    return {x[0], x[1], x[2]};
  }
};

SimbodyMechanism::SimbodyMechanism(const MechanismSpec& spec) : model_(std::make_unique<Model>()) {
  Model& m = *model_;
  const double l = spec.length, g = spec.gravity;
  m.probe_station = Vec3(l, 0, 0);  // the right end of a bar (Noether's body point X = (l/2, 0[, 0]))
  switch (spec.kind) {
    case MechanismKind::chain2d: {
      SimTK::Force::UniformGravity(m.forces, m.matter, Vec3(0, -g, 0));
      MobilizedBody parent = m.matter.Ground();
      for (long i = 0; i < spec.n; ++i)
        parent = MobilizedBody::Pin(parent, Transform(Vec3(i == 0 ? 0.0 : l, 0, 0)), planar_bar(spec), Transform());
      m.probe_body = parent;
      m.initial = m.system.realizeTopology();  // released at rest, horizontal: q = u = 0
      break;
    }
    case MechanismKind::chain3d: {
      SimTK::Force::UniformGravity(m.forces, m.matter, Vec3(0, 0, -g));
      const MobilizedBody::Ball first(m.matter.Ground(), Transform(), spatial_bar(spec), Transform());
      MobilizedBody parent = first;
      for (long i = 1; i < spec.n; ++i)
        parent = MobilizedBody::Ball(parent, Transform(Vec3(l, 0, 0)), spatial_bar(spec), Transform());
      m.probe_body = parent;
      m.initial = m.system.realizeTopology();
      // A rigid rotation about the vertical through the pivot, the tip at tip_speed: the first
      // Ball turns relative to the ground, the others not relative to their parents.
      first.setUToFitAngularVelocity(m.initial, Vec3(0, 0, spec.tip_speed / (static_cast<double>(spec.n) * l)));
      break;
    }
    case MechanismKind::nfourbar: {
      SimTK::Force::UniformGravity(m.forces, m.matter, Vec3(0, -g, 0));
      std::vector<MobilizedBody::Pin> cranks, couplers;
      for (long i = 0; i <= spec.n; ++i)
        cranks.emplace_back(m.matter.Ground(), Transform(Vec3(static_cast<double>(i) * l, 0, 0)), planar_bar(spec),
                            Transform());
      for (long i = 0; i < spec.n; ++i) {
        const auto left = static_cast<std::size_t>(i);
        couplers.emplace_back(cranks[left], Transform(Vec3(l, 0, 0)), planar_bar(spec), Transform());
        SimTK::Constraint::PointOnLine(cranks[left + 1], SimTK::UnitVec3(SimTK::ZAxis), Vec3(l, 0, 0), couplers.back(),
                                       Vec3(l, 0, 0));
      }
      m.probe_body = cranks.front();
      m.initial = m.system.realizeTopology();
      // Squares: cranks upright turning at -top_speed/l; couplers level (at -pi/2 to their crank)
      // and not turning (relative rate +top_speed/l).
      for (MobilizedBody::Pin& crank : cranks) {
        crank.setAngle(m.initial, SimTK::Pi / 2);
        crank.setRate(m.initial, -spec.top_speed / l);
      }
      for (MobilizedBody::Pin& coupler : couplers) {
        coupler.setAngle(m.initial, -SimTK::Pi / 2);
        coupler.setRate(m.initial, spec.top_speed / l);
      }
      break;
    }
  }
  m.system.realize(m.initial, SimTK::Stage::Velocity);
  const double position_error = m.initial.getQErr().normInf(), velocity_error = m.initial.getUErr().normInf();
  if (position_error > 1e-14 || velocity_error > 1e-14) {
    std::string message = "Simbody model: the release violates the constraints (position error ";
    message += std::to_string(position_error);
    message += ", velocity error ";
    message += std::to_string(velocity_error);
    message += ")";
    throw std::logic_error(message);
  }
}

SimbodyMechanism::~SimbodyMechanism() = default;

IntegrationRun SimbodyMechanism::run(std::string_view integrator_name, double accuracy, double t_end, int samples,
                                     double time_limit, TimeMeasure measure) const {
  const Model& m = *model_;
  IntegrationRun run;
  std::vector<SimTK::State> sampled;
  sampled.reserve(static_cast<std::size_t>(samples));
  const RunClock clock(measure);
  try {
    const std::unique_ptr<SimTK::Integrator> integrator = make_integrator(integrator_name, m.system);
    integrator->setAccuracy(accuracy);
    integrator->setFinalTime(t_end);
    integrator->setInternalStepLimit(kStepsBetweenClockChecks);
    integrator->initialize(m.initial);
    run.setup_seconds = clock.elapsed();
    for (int k = 1; k <= samples && run.failure.empty(); ++k) {
      const double t_sample = t_end * k / samples;
      while (integrator->getTime() < t_sample && !integrator->isSimulationOver()) {
        integrator->stepTo(t_sample);
        if (clock.elapsed() > time_limit) {
          run.failure = abandoned_message(time_limit, integrator->getTime());
          run.timed_out = true;
          break;
        }
      }
      if (integrator->isSimulationOver() && integrator->getTerminationReason() != SimTK::Integrator::ReachedFinalTime) {
        run.failure = "Simbody terminated: ";
        run.failure += SimTK::Integrator::getTerminationReasonString(integrator->getTerminationReason());
      }
      if (run.failure.empty()) sampled.push_back(integrator->getState());
    }
    run.steps = integrator->getNumStepsTaken();
    run.retries = integrator->getNumStepsAttempted() - integrator->getNumStepsTaken();
  } catch (const std::exception& e) {
    run.failure = e.what();
  }
  run.seconds = clock.elapsed();
  for (const SimTK::State& state : sampled) run.probe.push_back(m.probe(state));
  return run;
}

}  // namespace noether::work_precision
