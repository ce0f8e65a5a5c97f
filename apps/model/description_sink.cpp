#include <noether/apps/model/description_sink.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace noether {
namespace {

class WholeSink final : public DescriptionSink {
 public:
  void body(BodyDescription body) override { description_.bodies.push_back(std::move(body)); }
  void joint(JointDescription joint, std::initializer_list<Index>) override { description_.joints.push_back(std::move(joint)); }
  ModelDescription& model_wide() override { return description_; }
  ModelDescription take() { return std::move(description_); }

 private:
  ModelDescription description_;
};

class OutlineSink final : public DescriptionSink {
 public:
  void body(BodyDescription body) override { outline_.add_body(coordinates_of(body)); }
  void joint(JointDescription, std::initializer_list<Index> bodies) override {
    outline_.add_element(EntryList::joints, joints_++, bodies);
  }
  ModelDescription& model_wide() override { return model_wide_; }
  DescriptionOutline take() { return std::move(outline_); }

 private:
  DescriptionOutline outline_;
  Index joints_ = 0;
  ModelDescription model_wide_;  ///< not outlined: it builds no element that joins bodies
};

/// Keeps the bodies and joints a selection keeps, numbering them as they come.
class PartSink final : public DescriptionSink {
 public:
  explicit PartSink(const PartSelection& selection) : selection_(selection) {}

  void body(BodyDescription body) override {
    const auto b = static_cast<std::size_t>(bodies_++);
    if (b >= selection_.bodies.size())
      throw std::invalid_argument("the generator gave more bodies than the outline it was selected on, " +
                                  std::to_string(selection_.bodies.size()));
    const Index size = coordinates_of(body);
    if (selection_.bodies[b] != BodyRole::absent) {
      part_.description.bodies.push_back(std::move(body));
      part_.roles.push_back(selection_.bodies[b]);
      part_.body_numbers.push_back(static_cast<Index>(b));
      part_.body_offsets.push_back(offset_);
    }
    offset_ += size;
  }

  void joint(JointDescription joint, std::initializer_list<Index>) override {
    constexpr auto list = static_cast<std::size_t>(EntryList::joints);
    const Index number = joints_++;
    if (!std::ranges::binary_search(selection_.described[list], number)) return;
    part_.description.joints.push_back(std::move(joint));
    part_.entry_numbers[list].push_back(number);
    part_.builds[list].push_back(std::ranges::binary_search(selection_.built[list], number));
  }

  ModelDescription& model_wide() override { return part_.description; }

  /// The part, its model-wide forces numbered as the whole's (they are its only forces).
  PartDescription take() {
    if (bodies_ != static_cast<Index>(selection_.bodies.size()))
      throw std::invalid_argument("the generator gave " + std::to_string(bodies_) + " bodies, and the outline it was "
                                  "selected on " + std::to_string(selection_.bodies.size()));
    ModelDescription& d = part_.description;
    if (!d.inertias.empty() || !d.constraints.empty() || !d.drives.empty() || !d.actuators.empty())
      throw std::invalid_argument("a generator gives bodies and joints through its sink, and model-wide only gravity, "
                                  "probes, invariants and conserved momenta");
    constexpr auto forces = static_cast<std::size_t>(EntryList::forces);
    for (std::size_t i = 0; i < d.forces.size(); ++i) {
      if (!std::holds_alternative<GravityDescription>(d.forces[i]))
        throw std::invalid_argument("a generator's model-wide force " + std::to_string(i) +
                                    " is not gravity: a force between bodies goes into the parts that build it");
      part_.entry_numbers[forces].push_back(static_cast<Index>(i));
      part_.builds[forces].push_back(true);
    }
    part_.whole_coordinates = offset_;
    return std::move(part_);
  }

 private:
  const PartSelection& selection_;
  PartDescription part_;
  Index bodies_ = 0, joints_ = 0, offset_ = 0;
};

}  // namespace

ModelDescription described(const DescriptionGenerator& generate) {
  WholeSink sink;
  generate(sink);
  return sink.take();
}

DescriptionOutline outlined(const DescriptionGenerator& generate) {
  OutlineSink sink;
  generate(sink);
  return sink.take();
}

PartDescription part_described(const DescriptionGenerator& generate, const PartSelection& selection) {
  PartSink sink(selection);
  generate(sink);
  return sink.take();
}

PartedModel parted(DescriptionGenerator generate) {
  DescriptionOutline outline = outlined(generate);
  return {std::move(outline), [generate = std::move(generate)](const PartSelection& selection) {
            return part_described(generate, selection);
          }};
}

PartedModel parted(std::shared_ptr<const ModelDescription> description) {
  return {outline_of(*description), [description](const PartSelection& selection) {
            return part_description(*description, selection);
          }};
}

}  // namespace noether
