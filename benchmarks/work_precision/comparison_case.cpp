#include "comparison_case.hpp"

#include <charconv>
#include <stdexcept>

#include <noether/apps/mechanisms/generators.hpp>

namespace noether::work_precision {
namespace {

constexpr std::string_view kAccepted = "MECHANISM:N with MECHANISM chain2d, chain3d or nfourbar and N >= 1 (e.g. chain2d:100)";

}  // namespace

std::string_view ComparisonCase::mechanism_name() const {
  switch (mechanism) {
    case MechanismKind::chain2d: return "chain2d";
    case MechanismKind::chain3d: return "chain3d";
    case MechanismKind::nfourbar: return "nfourbar";
  }
  return "unknown";
}

std::string_view ComparisonCase::probe_name() const { return mechanism == MechanismKind::nfourbar ? "B0" : "tip"; }

MechanismSpec ComparisonCase::simbody_spec() const {
  const BarProperties bars;  // the scenarios build with the generators' default bars
  MechanismSpec spec{.kind = mechanism, .n = n, .mass = bars.mass, .length = bars.length, .gravity = bars.gravity};
  if (mechanism == MechanismKind::chain3d) spec.tip_speed = parameters.at("tip_speed");
  if (mechanism == MechanismKind::nfourbar) spec.top_speed = parameters.at("top_speed");
  return spec;
}

ComparisonCase parse_case(std::string_view text) {
  const std::size_t colon = text.find(':');
  std::string message = "--case '";
  message += text;
  message += "': expected ";
  message += kAccepted;
  if (colon == std::string_view::npos) throw std::invalid_argument(message);
  ComparisonCase c;
  const std::string_view name = text.substr(0, colon), size = text.substr(colon + 1);
  if (name == "chain2d") c.mechanism = MechanismKind::chain2d;
  else if (name == "chain3d") c.mechanism = MechanismKind::chain3d;
  else if (name == "nfourbar") c.mechanism = MechanismKind::nfourbar;
  else throw std::invalid_argument(message);
  const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), c.n);
  if (size.empty() || error != std::errc() || end != size.data() + size.size() || c.n < 1)
    throw std::invalid_argument(message);
  c.parameters = resolve_parameters(find_scenario(std::string(name)), {{"n", static_cast<double>(c.n)}});
  return c;
}

Model build_noether_model(const ComparisonCase& c) {
  Model model = find_scenario(std::string(c.mechanism_name())).build(c.parameters);
  if (model.probes.empty() || model.probes.front().name != c.probe_name()) {
    std::string message = "scenario '";
    message += c.mechanism_name();
    message += "' no longer has the probe '";
    message += c.probe_name();
    message += "' first: the comparison measures that probe";
    throw std::logic_error(message);
  }
  return model;
}

Eigen::Vector3d probe_position(const Model& model, const State& state) {
  const Vector x = model.probes.front().position(state);
  Eigen::Vector3d padded = Eigen::Vector3d::Zero();
  padded.head(x.size()) = x;
  return padded;
}

}  // namespace noether::work_precision
