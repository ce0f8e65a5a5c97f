#include <noether/apps/model/conserved_momenta.hpp>

namespace noether {
namespace {

/// Calls f(name, declared, vector, axis) for the six components in the order of names().
template <class F>
void for_each_component(const ConservedMomenta& c, F&& f) {
  static constexpr std::array<const char*, 3> axes{"x", "y", "z"};
  for (std::size_t k = 0; k < 3; ++k) f(std::string("linear_momentum.") + axes[k], c.linear[k], true, static_cast<Index>(k));
  for (std::size_t k = 0; k < 3; ++k) f(std::string("angular_momentum.") + axes[k], c.angular[k], false, static_cast<Index>(k));
}

}  // namespace

bool ConservedMomenta::empty() const { return names().empty(); }

std::vector<std::string> ConservedMomenta::names() const {
  std::vector<std::string> out;
  for_each_component(*this, [&](const std::string& name, bool declared, bool, Index) {
    if (declared) out.push_back(name);
  });
  return out;
}

std::vector<double> ConservedMomenta::values(const Momenta& m) const {
  std::vector<double> out;
  for_each_component(*this, [&](const std::string&, bool declared, bool is_linear, Index k) {
    if (declared) out.push_back(is_linear ? m.linear(k) : m.angular(k));
  });
  return out;
}

}  // namespace noether
